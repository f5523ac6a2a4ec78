import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { madeOncePerRun } from './made-once-per-run.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A copy of the repository with its TypeScript already turned into JavaScript (transpiled-copy.ts). */
    transpiledRoot: string;
  }
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Not copied: what no process a test starts reads (the tests, the portal's and checks page's sources, run output). */
const SKIPPED = new Set(['.git', 'node_modules', 'test', 'test-output', 'data', 'memory', 'tmp', 'web/portal/src', 'web/checks-page-client/src']);

/**
 * vitest globalSetup: the repository once more, with each .ts file turned into .js by esbuild and
 * every other file linked, so the tests that start the server or the admin command as a process
 * (spawn-server.ts) run it with plain node. `npm start` runs the same files through tsx, which makes
 * the same esbuild transform at every start, through module hooks on a second thread: measured, a
 * server start took 7.2 s of CPU under tsx and 4.6 s from this copy. Its node_modules is a link to
 * the repository's, and what the code finds from import.meta.url (the built pages, the GraphQL
 * documents, the CA roots) is a link in the copy to the repository's own file.
 */
export default async function transpiledCopy(project: TestProject): Promise<() => Promise<void>> {
  const copy = await madeOncePerRun('transpiled-copy', makeCopy, (dir) => rmSync(dir, { recursive: true, force: true }));
  project.provide('transpiledRoot', copy.made);
  return copy.release;
}

async function makeCopy(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-transpiled-'));
  const sources: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(repoRoot, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (SKIPPED.has(path)) continue;
      if (entry.isDirectory()) {
        mkdirSync(join(dir, path));
        walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) sources.push(join(repoRoot, path));
      else symlinkSync(join(repoRoot, path), join(dir, path));
    }
  };
  walk('');
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  await build({ entryPoints: sources, outdir: dir, outbase: repoRoot, format: 'esm', platform: 'node', target: 'node20', logLevel: 'error' });
  return dir;
}
