// Types of scripts/build.mjs (plain JavaScript, so that npm start needs no TypeScript runner) for the TypeScript that imports it.

/** The repository root. */
export declare const repoRoot: string;
/** Where `npm start` runs the server from. */
export declare const BUILD_DIR: string;
/** The repository once more in `outDir`, .ts files transpiled by esbuild and everything else linked; resolves with the copy's stamp. */
export declare function transpileRepository(outDir: string): Promise<string>;
/** .build/ (or `outDir`) made anew when missing or stale; resolves with whether it built. */
export declare function ensureBuilt(outDir?: string): Promise<boolean>;
