import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/spawn-server.js';

// `npm run lint` on a small project of bad files: the repository's own configs and scripts, run in
// a temporary folder so the real tree is never touched.
const folder = mkdtempSync(join(tmpdir(), 'lint-rules-'));
symlinkSync(join(repoRoot, 'node_modules'), join(folder, 'node_modules'));
const bin = join(repoRoot, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };

function write(path: string, text: string): void {
  mkdirSync(dirname(join(folder, path)), { recursive: true });
  writeFileSync(join(folder, path), text);
}

function run(command: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd: folder, env, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

write(
  'tsconfig.json',
  JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', types: [] }, include: ['**/*.ts'] }),
);
copyFileSync(join(repoRoot, '.oxlintrc.json'), join(folder, '.oxlintrc.json'));
mkdirSync(join(folder, 'scripts'));
copyFileSync(join(repoRoot, 'scripts/unsafe-assertions.oxlintrc.json'), join(folder, 'scripts/unsafe-assertions.oxlintrc.json'));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('npm run lint keeps the house rules', () => {
  it('oxlint refuses GraphQL in resolvers, console.log in source, a floating promise, an unused import and it.only', () => {
    write(
      'resolvers/bad.ts',
      [
        "import { parse } from 'graphql';",
        "import { join } from 'node:path';",
        'export function f(): unknown {',
        "  console.log('x');",
        "  fetch('http://127.0.0.1:9');",
        '  return parse;',
        '}',
        '',
      ].join('\n'),
    );
    write('server/uses-test-code.ts', "import { fixtureZone } from '../test/support/fixture-zone.js';\nexport const zone = fixtureZone;\n");
    write('test/focused.test.ts', "import { expect, it } from 'vitest';\nit.only('x', () => { expect(1).toBe(1); });\n");
    const result = run('oxlint', ['--format', 'json', 'resolvers', 'server', 'test']);
    expect(result.status).toBe(1);
    const found = (JSON.parse(result.stdout) as { diagnostics: { filename: string; code: string }[] }).diagnostics.map((d) => `${d.filename} ${d.code}`).sort();
    expect(found).toEqual([
      'resolvers/bad.ts eslint(no-console)',
      'resolvers/bad.ts eslint(no-restricted-imports)',
      'resolvers/bad.ts eslint(no-unused-vars)',
      'resolvers/bad.ts typescript(no-floating-promises)',
      'server/uses-test-code.ts eslint(no-restricted-imports)',
      'test/focused.test.ts vitest(no-focused-tests)',
    ]);
  });

  it('oxlint refuses an import that climbs a floor (docs/lint.md, "Floors"), and one door importing the other', () => {
    write('observability/planted-metrics.ts', "import { log } from '../resolvers/planted-log.js';\nexport const metric = log;\n");
    write('resolvers/planted-log.ts', "import { startService } from '../server/start-service.js';\nexport const log = startService;\n");
    write('db/planted-seed.ts', "import { placeOrder } from '../resolvers/orders/place-order.js';\nexport const seed = placeOrder;\n");
    write('clients/planted-client.ts', "import { placeOrder } from '../resolvers/orders/place-order.js';\nexport const client = placeOrder;\n");
    write('mcp/planted-door.ts', "import { createRestHandler } from '../rest/create-rest-handler.js';\nexport const door = createRestHandler;\n");
    // Downward and same-floor imports pass.
    write(
      'jobs/planted-job.ts',
      "import { log } from '../observability/log.js';\nimport { placeOrder } from '../resolvers/orders/place-order.js';\nexport const job = [log, placeOrder];\n",
    );
    write('server/planted-server.ts', "import { createRestHandler } from '../rest/create-rest-handler.js';\nexport const handler = createRestHandler;\n");
    const result = run('oxlint', ['--format', 'json', 'observability', 'resolvers/planted-log.ts', 'clients', 'db', 'mcp', 'jobs', 'server/planted-server.ts']);
    expect(result.status).toBe(1);
    const found = (JSON.parse(result.stdout) as { diagnostics: { filename: string; code: string; help?: string }[] }).diagnostics;
    expect(found.map((d) => `${d.filename} ${d.code}`).sort()).toEqual([
      'clients/planted-client.ts eslint(no-restricted-imports)',
      'db/planted-seed.ts eslint(no-restricted-imports)',
      'mcp/planted-door.ts eslint(no-restricted-imports)',
      'observability/planted-metrics.ts eslint(no-restricted-imports)',
      'resolvers/planted-log.ts eslint(no-restricted-imports)',
    ]);
    expect(found.find((d) => d.filename === 'db/planted-seed.ts')?.help).toContain('db/ may import only from its own floor and below');
  });

  it('oxlint refuses a function over 120 lines in resolvers/ and admin/ (docs/lint.md, "Short functions"); elsewhere it passes', () => {
    const long = `export function long(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(119)}  return n;\n}\n`;
    write('resolvers/planted-long.ts', long);
    write('admin/planted-long.ts', long);
    write('rest/planted-long.ts', long);
    const result = run('oxlint', ['--format', 'json', 'resolvers/planted-long.ts', 'admin/planted-long.ts', 'rest/planted-long.ts']);
    expect(result.status).toBe(1);
    const found = (JSON.parse(result.stdout) as { diagnostics: { filename: string; code: string }[] }).diagnostics.map((d) => `${d.filename} ${d.code}`).sort();
    expect(found).toEqual(['admin/planted-long.ts eslint(max-lines-per-function)', 'resolvers/planted-long.ts eslint(max-lines-per-function)']);
  });

  it('oxlint refuses a query written outside db/ (SQL lives in db/<table>.ts); the same query in db/ passes', () => {
    const query = "import type { Kysely } from 'kysely';\nexport function f(db: Kysely<any>) {\n  return db.selectFrom('orders').selectAll().execute();\n}\n";
    write('webhooks-planted/inline-sql.ts', query);
    write('db/planted-orders.ts', query);
    const result = run('oxlint', ['--format', 'json', 'webhooks-planted', 'db/planted-orders.ts']);
    expect(result.status).toBe(1);
    const found = (JSON.parse(result.stdout) as { diagnostics: { filename: string; code: string; help?: string }[] }).diagnostics;
    expect(found.map((d) => `${d.filename} ${d.code}`)).toEqual(['webhooks-planted/inline-sql.ts eslint(no-restricted-properties)']);
    expect(found[0]?.help).toContain('db/<table>.ts');
  });

  it('oxlint refuses a regex whose time grows faster than its input (eslint-plugin-regexp through jsPlugins); a linear one passes', () => {
    // The pattern that once read graphql-js messages holding a caller's value (issue 32), and a split at the first blanks.
    write(
      'regex-planted/slow.ts',
      'export const kind = (m: string) => /(\\w+) cannot represent/.exec(m)?.[1];\nexport const split = (s: string) => /^(\\S+)\\s+(.*)$/.exec(s);\n',
    );
    write(
      'regex-planted/linear.ts',
      'export const kind = (m: string) => /^(\\w+) cannot represent/.exec(m)?.[1];\nexport const split = (s: string) => /^(\\S+)\\s+(?!\\s)(.*)$/.exec(s);\n',
    );
    const result = run('oxlint', ['--format', 'json', 'regex-planted']);
    expect(result.status).toBe(1);
    const found = (JSON.parse(result.stdout) as { diagnostics: { filename: string; code: string }[] }).diagnostics.map((d) => `${d.filename} ${d.code}`).sort();
    expect(found).toEqual(['regex-planted/slow.ts regexp(no-super-linear-backtracking)', 'regex-planted/slow.ts regexp(no-super-linear-move)']);
  });

  it('a skipped test must say why on its line', () => {
    write('skips/silent.test.ts', "import { it } from 'vitest';\nit.skip('x', () => {});\n"); // reason: a scratch file the skipped-test rule must catch
    const silent = run(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/lint-skipped-tests.ts'), 'skips']);
    expect(silent.status).toBe(1);
    expect(silent.stderr).toContain('skips/silent.test.ts:2: a skipped test must say why');

    write('skips/silent.test.ts', "import { it } from 'vitest';\nit.skip('x, because the fixture server is down', () => {});\n");
    expect(run(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/lint-skipped-tests.ts'), 'skips']).status).toBe(0);
  });

  it('an unsafe type assertion in a file the baseline does not list fails; within its count it passes', () => {
    write('scripts/unsafe-assertions-baseline.json', '{}\n');
    write('admin/narrowing.ts', 'export function f(v: unknown): string {\n  return v as string;\n}\n');
    const script = join(repoRoot, 'scripts/lint-unsafe-assertions.ts');
    const refused = run(process.execPath, ['--import', 'tsx', script]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('admin/narrowing.ts: 1 unsafe type assertions, 0 allowed (at 2:10)');

    write('scripts/unsafe-assertions-baseline.json', '{ "admin/narrowing.ts": 1 }\n');
    expect(run(process.execPath, ['--import', 'tsx', script]).status).toBe(0);
  });
  it('a breaking GraphQL change fails against the released schema unless it is listed with a reason', () => {
    for (const file of ['schema/released/account.graphql', 'schema/released/public.graphql', 'schema.public.graphql']) {
      mkdirSync(dirname(join(folder, file)), { recursive: true });
      copyFileSync(join(repoRoot, file), join(folder, file));
    }
    write('schema/released/accepted-changes.json', JSON.stringify({ accepted: [] }));
    const released = readFileSync(join(repoRoot, 'schema/released/account.graphql'), 'utf8');
    const script = join(repoRoot, 'scripts/lint-schema-changes.ts');

    write('schema.graphql', released);
    expect(run(process.execPath, ['--import', 'tsx', script]).status).toBe(0);

    // Planted: the dashboard's order count removed.
    expect(released).toContain('  orderCount: Int!\n');
    write('schema.graphql', released.replace('  orderCount: Int!\n', ''));
    const refused = run(process.execPath, ['--import', 'tsx', script]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("Field 'orderCount' was removed from object type 'Dashboard' (path Dashboard.orderCount)");
    expect(refused.stderr).toContain('accepted-changes.json');

    write('schema/released/accepted-changes.json', JSON.stringify({ accepted: [{ path: 'Dashboard.orderCount', reason: 'planted' }] }));
    expect(run(process.execPath, ['--import', 'tsx', script]).status).toBe(0);
  });
});
