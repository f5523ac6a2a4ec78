import { appendFileSync } from 'node:fs';
import { afterAll } from 'vitest';

/**
 * Setup file for `CPU_TIMINGS=<path>` (see docs/testing.md): appends one JSON line per test file with
 * the CPU time (user, sys) and wall time its worker spent from loading this file to the file's last hook.
 */
const path = process.env.CPU_TIMINGS;
if (path) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const startedAt = Date.now();
  // vitest reads a hook's first parameter as fixtures and wants a pattern there; the suite is the second.
  // oxlint-disable-next-line no-empty-pattern
  afterAll(({}, suite) => {
    const used = process.cpuUsage(cpu);
    const file = 'filepath' in suite ? suite.filepath : suite.file.filepath;
    appendFileSync(
      path,
      `${JSON.stringify({ file, userMs: Math.round(used.user / 1000), sysMs: Math.round(used.system / 1000), wallMs: Math.round(performance.now() - start), startedAt, pid: process.pid })}\n`,
    );
  });
}
