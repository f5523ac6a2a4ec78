// House rule oxlint has no rule for: a skipped or to-do test says why on the same line ("because",
// "reason", or a skipIf/runIf condition), so a skip is never silent. vitest/no-disabled-tests would
// forbid every skip, and a disable directive's "-- why" is optional, so this stays a script.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const problems: string[] = [];

function walk(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (/\.(ts|mjs)$/.test(entry.name)) check(path, readFileSync(path, 'utf8'));
  }
}

function check(path: string, text: string): void {
  text.split('\n').forEach((line, i) => {
    if (/\b(it|describe|test)\.(skip|todo)\(/.test(line) && !/because|reason|skipIf|runIf/.test(line)) {
      problems.push(`${path}:${i + 1}: a skipped test must say why (write "because ..." on the same line)`);
    }
  });
}

walk(process.argv[2] ?? 'test');
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
