import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../scripts/build.mjs';
import { repoRoot } from '../support/spawn-server.js';

/**
 * `npm start` runs built JavaScript (scripts/build.mjs makes .build/ at install and before each start
 * when a source changed), and tsx is a development tool only. The copy itself is what every test
 * that starts a process runs (test/support/transpiled-copy.ts makes it with the same function).
 */
const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const parent = mkdtempSync(join(tmpdir(), 'svc-built-start-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('npm start runs the built copy', () => {
  it('start, prestart, postinstall and admin run node on built files, not tsx; tsx is a devDependency and esbuild a dependency', () => {
    expect(packageJson.scripts.start).toBe('node .build/server/main.js');
    expect(packageJson.scripts.prestart).toBe('node scripts/build.mjs');
    expect(packageJson.scripts.postinstall).toBe('node scripts/build.mjs');
    expect(packageJson.scripts.admin).toBe('node scripts/build.mjs --server && node .build/admin/cli.js');
    for (const name of ['start', 'prestart', 'postinstall', 'admin']) expect(packageJson.scripts[name], name).not.toContain('tsx');
    expect(packageJson.dependencies.tsx).toBeUndefined();
    expect(packageJson.devDependencies.tsx).toBeDefined();
    expect(packageJson.dependencies.esbuild).toBeDefined();
  });

  it('builds when the copy is missing, and not again while no source changed', async () => {
    const out = join(parent, 'build');
    expect(await ensureBuilt(out)).toBe(true);
    expect(existsSync(join(out, 'server/main.js'))).toBe(true);
    expect(existsSync(join(out, 'admin/cli.js'))).toBe(true);
    // What the code reads beside itself is linked: the GraphQL documents, the CLI file it serves.
    expect(existsSync(join(out, 'operations/documents/dashboard.graphql'))).toBe(true);
    expect(existsSync(join(out, 'cli/svc.py'))).toBe(true);
    expect(await ensureBuilt(out)).toBe(false);
  });
});
