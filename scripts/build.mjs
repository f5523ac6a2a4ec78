// What `npm start` runs, made once: the repository's TypeScript turned into JavaScript by esbuild
// (the transform tsx makes at every start), so the server and the admin command run with plain node.
// Plain JavaScript itself, so it needs nothing but node and esbuild (a dependency) to run.
//
//   node scripts/build.mjs            the portal (scripts/build-portal.ts), then the server's JavaScript in .build/
//   node scripts/build.mjs --server   the server's JavaScript only (npm run admin)
//
// npm install (postinstall) and npm start (prestart) run it; it rebuilds only when a source changed
// (a hash of every file it reads, kept in .build/.build-stamp), in well under a second when nothing did.
// The tests make the same copy once per run in a folder of their own (test/support/transpiled-copy.ts).

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';

/** The repository root (this file's parent folder's parent). */
export const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/** Where `npm start` runs the server from. Ignored by git (and so by Biome, oxlint and knip). */
export const BUILD_DIR = join(repoRoot, '.build');

/** Not copied: what no process a test or npm start runs reads (the tests, the portal's and checks page's sources, run output). */
const SKIPPED = new Set(['.git', 'node_modules', 'test', 'test-output', 'data', 'memory', 'tmp', 'web/portal/src', 'web/checks-page-client/src']);

/** esbuild's options: part of the stamp, so a change of them rebuilds. */
const OPTIONS = { format: 'esm', platform: 'node', target: 'node20', logLevel: 'error' };

/**
 * The copy's plan: each .ts file (not .d.ts) to transpile, each folder to make, and everything else
 * to link: a file, or a whole folder holding no .ts file (the built portal, the GraphQL documents),
 * so a later rebuild of the portal is served without another copy.
 */
function plan() {
  const sources = [];
  const folders = [];
  const links = [];
  const walk = (folder) => {
    let found = false;
    for (const entry of readdirSync(join(repoRoot, folder), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (SKIPPED.has(path) || path.startsWith('.build')) continue;
      if (entry.isDirectory()) {
        const mark = { sources: sources.length, folders: folders.length, links: links.length };
        folders.push(path);
        if (walk(path)) found = true;
        else {
          // Nothing to transpile below: one link for the folder instead of its contents.
          sources.length = mark.sources;
          folders.length = mark.folders;
          links.length = mark.links;
          links.push(path);
        }
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        sources.push(path);
        found = true;
      } else links.push(path);
    }
    return found;
  };
  walk('');
  return { sources, folders, links };
}

/** A hash of everything a copy is made from: esbuild's version and options, each source's path and text, each link's path. */
function stampOf(copyPlan) {
  const hash = createHash('sha256').update(`${esbuildVersion}\0${JSON.stringify(OPTIONS)}\0`);
  for (const path of copyPlan.sources)
    hash
      .update(`${path}\0`)
      .update(readFileSync(join(repoRoot, path)))
      .update('\0');
  for (const path of copyPlan.links) hash.update(`link ${path}\0`);
  return hash.digest('hex');
}

/**
 * The repository once more in `outDir`, with each .ts file turned into .js by esbuild and every other
 * file linked (node_modules too), so node runs server/main.js there as tsx runs server/main.ts here.
 * What the code finds from import.meta.url (the built pages, the GraphQL documents, the CA roots) is a
 * link in the copy to the repository's own file. Returns the copy's stamp.
 */
export async function transpileRepository(outDir, copyPlan = plan()) {
  mkdirSync(outDir, { recursive: true });
  for (const folder of copyPlan.folders) mkdirSync(join(outDir, folder), { recursive: true });
  for (const path of copyPlan.links) symlinkSync(join(repoRoot, path), join(outDir, path));
  symlinkSync(join(repoRoot, 'node_modules'), join(outDir, 'node_modules'));
  await build({ ...OPTIONS, entryPoints: copyPlan.sources.map((path) => join(repoRoot, path)), outdir: outDir, outbase: repoRoot });
  return stampOf(copyPlan);
}

/**
 * .build/ made anew when missing or stale, in a folder of its own first and then renamed into place,
 * so a process starting meanwhile never sees half a copy. Returns whether it built.
 */
export async function ensureBuilt(outDir = BUILD_DIR) {
  const copyPlan = plan();
  const wanted = stampOf(copyPlan);
  const stampIn = (dir) => (existsSync(join(dir, '.build-stamp')) ? readFileSync(join(dir, '.build-stamp'), 'utf8').trim() : null);
  if (stampIn(outDir) === wanted) return false;
  const started = Date.now();
  const fresh = `${outDir}.tmp-${process.pid}`;
  rmSync(fresh, { recursive: true, force: true });
  await transpileRepository(fresh, copyPlan);
  writeFileSync(join(fresh, '.build-stamp'), `${wanted}\n`);
  rmSync(outDir, { recursive: true, force: true });
  try {
    renameSync(fresh, outDir);
  } catch (error) {
    // Another start built the same sources at the same moment: theirs is as good.
    rmSync(fresh, { recursive: true, force: true });
    if (stampIn(outDir) !== wanted) throw error;
  }
  console.error(`server: built into ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/** The portal (scripts/build-portal.ts, which skips when up to date): through tsx where it is installed (with Vite, a development install). */
function buildPortal() {
  const tsx = existsSync(join(repoRoot, 'node_modules/tsx'));
  // Without devDependencies (npm ci --omit=dev) there is no Vite to build with: the built copy of the
  // script only checks that the builds made before are there (docs/production.md).
  const args = tsx ? ['--import', 'tsx', join(repoRoot, 'scripts/build-portal.ts')] : [join(BUILD_DIR, 'scripts/build-portal.js')];
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const serverOnly = process.argv.includes('--server');
  const tsx = existsSync(join(repoRoot, 'node_modules/tsx'));
  // The portal first where it can be built, so the server's copy links the folder it was built into.
  if (!serverOnly && tsx) buildPortal();
  await ensureBuilt();
  if (!serverOnly && !tsx) buildPortal();
}
