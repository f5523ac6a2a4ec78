import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { afterAll } from 'vitest';

/**
 * Setup file for `CPU_PROFILE_DIR=<folder>` (see docs/testing.md): records a V8 CPU profile of
 * each test file's worker, from loading this file to the file's last hook, and writes it as
 * <folder>/<file>.cpuprofile (open it in Chrome's DevTools, or sum it by package).
 */
const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  // oxlint-disable-next-line no-empty-pattern
  afterAll(async ({}, suite) => {
    const file = 'filepath' in suite ? suite.filepath : suite.file.filepath;
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    writeFileSync(join(dir, `${basename(file)}.cpuprofile`), JSON.stringify(profile));
  });
}
