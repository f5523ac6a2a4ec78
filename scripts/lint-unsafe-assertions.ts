// Unsafe type assertions (`x as T` where T is narrower than x's type) may not grow. The existing
// ones are counted per file in scripts/unsafe-assertions-baseline.json; a file may hold at most its
// count, and a file not listed (new code) none. Tests and benches are exempt: a wrong assertion
// there fails the test that relies on it. `--update` rewrites the baseline (review its diff: a count
// should only go down).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

const BASELINE = 'scripts/unsafe-assertions-baseline.json';
// Every folder of source (docs/lint.md, "Floors"); tests and benches are exempt.
const CHECKED = [
  'config',
  'observability',
  'db',
  'resolvers',
  'clients',
  'schema',
  'operations',
  'rest',
  'mcp',
  'jobs',
  'admin',
  'web',
  'server',
  'scripts',
  'codegen.ts',
];

const Report = z.object({
  diagnostics: z.array(
    z.object({
      filename: z.string(),
      labels: z.array(z.object({ span: z.object({ line: z.number(), column: z.number() }) })),
    }),
  ),
});
type Diagnostic = z.infer<typeof Report>['diagnostics'][number];

// oxlint exits 1 when it finds any; its JSON report is on stdout either way.
const oxlint = spawnSync('oxlint', ['-c', 'scripts/unsafe-assertions.oxlintrc.json', '--format', 'json', ...CHECKED], {
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (oxlint.error || !oxlint.stdout.trimStart().startsWith('{')) {
  process.stderr.write(`oxlint did not run: ${oxlint.error?.message ?? oxlint.stderr}\n`);
  process.exit(2);
}
const { diagnostics } = Report.parse(JSON.parse(oxlint.stdout));
const found = new Map<string, Diagnostic[]>();
for (const d of diagnostics) found.set(d.filename, [...(found.get(d.filename) ?? []), d]);

if (process.argv.includes('--update')) {
  const counts = Object.fromEntries([...found].sort(([a], [b]) => a.localeCompare(b)).map(([file, list]) => [file, list.length]));
  writeFileSync(BASELINE, `${JSON.stringify(counts, null, 2)}\n`);
  process.stdout.write(`${BASELINE}: ${diagnostics.length} unsafe assertions in ${found.size} files\n`);
  process.exit(0);
}

const baseline = z.record(z.string(), z.number()).parse(JSON.parse(readFileSync(BASELINE, 'utf8')));
const problems: string[] = [];
const lower: string[] = [];
for (const [file, list] of found) {
  const allowed = baseline[file] ?? 0;
  if (list.length > allowed) {
    const where = list.map((d) => `${d.labels[0]?.span.line ?? 0}:${d.labels[0]?.span.column ?? 0}`).join(', ');
    problems.push(
      `${file}: ${list.length} unsafe type assertions, ${allowed} allowed (at ${where}). Narrow with a type guard or a schema instead of \`as\`; see docs/lint.md.`,
    );
  }
}
for (const [file, allowed] of Object.entries(baseline)) {
  if ((found.get(file)?.length ?? 0) < allowed) lower.push(file);
}
if (lower.length > 0) process.stdout.write(`unsafe assertions went down in ${lower.join(', ')}: run \`npm run lint:baseline\` to keep them down\n`);
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
