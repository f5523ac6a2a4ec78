import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureLog, FLUSH_AFTER_MS, flushLog, log } from '../../observability/log.js';
import { repoRoot } from '../support/spawn-server.js';

describe('log writes', () => {
  afterEach(() => {
    vi.useRealTimers();
    configureLog({ silent: true });
    vi.restoreAllMocks();
  });

  it('lines logged close together go to stdout in one write, FLUSH_AFTER_MS after the first', async () => {
    configureLog({ silent: false });
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      writes.push(String(chunk));
      return true;
    });
    flushLog();
    // The flush is a deadline: on fake timers, nothing is written 1 ms before it, one write at it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (let i = 0; i < 3; i++) log('info', 'request', { n: i });
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    log('info', 'request', { n: 3 });
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(FLUSH_AFTER_MS - 1);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toHaveLength(1);
    expect(
      writes[0]!
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { n: number }).n),
    ).toEqual([0, 1, 2, 3]);
  });

  it('a turn that logs more than 64 KB writes as it goes, never holding an unbounded buffer', () => {
    configureLog({ silent: false });
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      writes.push(String(chunk));
      return true;
    });
    flushLog();
    for (let i = 0; i < 1000; i++) log('info', 'request', { padding: 'x'.repeat(100) });
    expect(writes.length).toBeGreaterThan(0);
    for (const text of writes) expect(text.length).toBeLessThan(64 * 1024 + 300);
    flushLog();
    expect(writes.join('').trimEnd().split('\n')).toHaveLength(1000);
  });

  it('lines still pending when the process exits are written, and errors go to stderr at once', () => {
    const script = [
      "import { log } from './observability/log.ts';",
      "log('info', 'last words', { n: 1 });",
      "log('error', 'went wrong');",
      'process.exit(3);',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'info' },
      encoding: 'utf8',
    });
    expect(child.status).toBe(3);
    expect(JSON.parse(child.stdout.trim())).toMatchObject({ level: 'info', message: 'last words', n: 1 });
    expect(JSON.parse(child.stderr.trim())).toMatchObject({ level: 'error', message: 'went wrong' });
  });
});
