/**
 * Builds the portal (web/portal) into web/portal/dist: GraphQL Codegen types the pages' documents
 * from schema.graphql, then Vite bundles them. The checks page's browser script
 * (web/checks-page-client/checks-page.ts) is compiled in the same step, by Vite too, into
 * web/checks-page-client/dist/checks-page.js (one ES2017 IIFE, inlined by web/checks-page.ts). `npm install` (postinstall) and `npm start` (prestart)
 * run this, so the README's two commands still do everything; it skips the work when nothing the
 * build reads has changed since the last one (a hash of the sources in dist/.build-hash).
 * `--force` builds anyway.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const portal = join(root, 'web/portal');
const dist = join(portal, 'dist');
const stampFile = join(dist, '.build-hash');
const checksPageDir = join(root, 'web/checks-page-client');
const checksPageOut = join(checksPageDir, 'dist/checks-page.js');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'gql' || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Everything the build reads: the sources, its configs, the schema and the installed versions. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const inputs = [
    ...filesUnder(join(portal, 'src')).sort(),
    join(portal, 'index.html'),
    join(portal, 'vite.config.ts'),
    join(portal, 'gql-documents-plugin.ts'),
    join(portal, 'codegen.ts'),
    join(root, 'schema.graphql'),
    join(root, 'package-lock.json'),
    // Service modules the portal imports as values (the lists of change request kinds and event types).
    join(root, 'resolvers/changes/request-kinds.ts'),
    join(root, 'resolvers/events/event-types.ts'),
    join(checksPageDir, 'checks-page.ts'),
  ];
  for (const file of inputs) {
    hash.update(relative(root, file)).update('\0');
    if (existsSync(file)) hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
// Vite, React and codegen are build tools (devDependencies): an install without them (npm ci
// --omit=dev, docs/production.md) serves the build made before it, and says so.
if (!existsSync(join(root, 'node_modules/vite'))) {
  if (existsSync(join(dist, 'index.html')) && existsSync(checksPageOut)) {
    console.log(
      'portal: vite is not installed (an install without devDependencies); serving the builds already in web/portal/dist and web/checks-page-client/dist',
    );
    process.exit(0);
  }
  console.error(
    'portal: vite is not installed and web/portal/dist or web/checks-page-client/dist holds no build: run `npm ci && npm run portal:build` before pruning devDependencies.',
  );
  process.exit(1);
}
const wanted = sourceHash();
const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : null;
if (!force && built === wanted && existsSync(join(dist, 'index.html')) && existsSync(checksPageOut)) {
  console.log('portal: up to date (web/portal/dist)');
} else {
  const started = Date.now();
  const bin = (name: string) => join(root, 'node_modules/.bin', name);
  execFileSync(bin('graphql-codegen'), ['--config', 'codegen.ts', '--silent'], { cwd: portal, stdio: 'inherit' });
  // React's production build whatever the caller's NODE_ENV (vitest runs this with NODE_ENV=test).
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  await build({ configFile: join(portal, 'vite.config.ts'), mode: 'production' });
  // Readable, not minified: the service fills in its two placeholders and the CSP hashes the result.
  await build({
    configFile: false,
    root: checksPageDir,
    logLevel: 'warn',
    build: {
      outDir: join(checksPageDir, 'dist'),
      emptyOutDir: true,
      target: 'es2017',
      minify: false,
      lib: { entry: join(checksPageDir, 'checks-page.ts'), formats: ['iife'], name: 'checksPage', fileName: () => 'checks-page.js' },
    },
  });
  writeFileSync(stampFile, `${wanted}\n`);
  console.log(`portal: built into web/portal/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
