import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The portal's first load, read from the build's Vite manifest (web/portal/dist/.vite/manifest.json):
 * the entry chunk and every chunk it imports statically (index.html names them as modulepreloads),
 * what a browser fetches before the sign-in page can draw. Pages imported with import() (every
 * signed-in page, web/portal/src/routes.tsx) come later and are listed apart. Gzip at level 9, as
 * server/serve-portal.ts serves them. No server and no browser: `npm run bench` runs it as its
 * `portal-first-load` step and test/web/portal-first-load.test.ts holds the same bound.
 */

/** The target: 100 KB of gzipped JS keeps the first page within a slow phone connection's first second or two. */
export const FIRST_LOAD_JS_GZIP_KB = 100;

export const PORTAL_DIST = fileURLToPath(new URL('../web/portal/dist/', import.meta.url));

interface ManifestChunk {
  readonly file: string;
  readonly isEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
  readonly css?: readonly string[];
}

export interface ChunkSize {
  readonly file: string;
  readonly raw: number;
  readonly gzip: number;
}

export interface FirstLoadFigures {
  /** The entry chunk and its static imports, the entry first. */
  readonly js: readonly ChunkSize[];
  readonly js_raw: number;
  readonly js_gzip: number;
  readonly css: readonly ChunkSize[];
  readonly css_gzip: number;
  /** Every chunk fetched only through import() (the pages), largest first. */
  readonly lazy: readonly ChunkSize[];
}

function sizeOf(dist: string, file: string): ChunkSize {
  const body = readFileSync(join(dist, file));
  return { file, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
}

export function portalFirstLoad(dist = PORTAL_DIST): FirstLoadFigures {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error(`${dist}.vite/manifest.json names no entry chunk; rebuild with npm run portal:build`);
  const firstKeys = new Set<string>();
  const visit = (key: string) => {
    if (firstKeys.has(key)) return;
    firstKeys.add(key);
    for (const imported of manifest[key]!.imports ?? []) visit(imported);
  };
  visit(entryKey);
  const js = [...firstKeys].map((key) => sizeOf(dist, manifest[key]!.file));
  const css = [...new Set([...firstKeys].flatMap((key) => manifest[key]!.css ?? []))].map((file) => sizeOf(dist, file));
  const lazy = Object.keys(manifest)
    .filter((key) => !firstKeys.has(key) && manifest[key]!.file.endsWith('.js'))
    .map((key) => sizeOf(dist, manifest[key]!.file))
    .sort((a, b) => b.gzip - a.gzip);
  const total = (list: readonly ChunkSize[], pick: (c: ChunkSize) => number) => list.reduce((sum, c) => sum + pick(c), 0);
  return { js, js_raw: total(js, (c) => c.raw), js_gzip: total(js, (c) => c.gzip), css, css_gzip: total(css, (c) => c.gzip), lazy };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function printFirstLoad(f: FirstLoadFigures): void {
  console.log('Portal first load (the entry chunk and its static imports, from the Vite manifest; gzip -9 as served):');
  for (const c of f.js) console.log(`  ${c.file.padEnd(36)} ${kb(c.raw).padStart(9)} raw  ${kb(c.gzip).padStart(8)} gzip`);
  console.log(`  JS ${kb(f.js_raw)} raw, ${kb(f.js_gzip)} gzip (target <= ${FIRST_LOAD_JS_GZIP_KB} KB); CSS ${kb(f.css_gzip)} gzip`);
  console.log(`  later, when a page is opened (${f.lazy.length} chunks, ${kb(f.lazy.reduce((s, c) => s + c.gzip, 0))} gzip in all), the largest:`);
  for (const c of f.lazy.slice(0, 6)) console.log(`    ${c.file.padEnd(34)} ${kb(c.gzip).padStart(8)} gzip`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { default: buildPortal } = await import('../test/support/build-portal.js');
  buildPortal();
  printFirstLoad(portalFirstLoad());
}
