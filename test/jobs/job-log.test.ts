import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { configureLog, flushLog } from '../../observability/log.js';
import { migrateToLatest } from '../../db/migrate.js';
import { openDatabase } from '../../db/open-database.js';
import { openInProcessQueue } from '../../jobs/in-process-runner.js';
import type { JobEnvironment, TaskFunction } from '../../jobs/job-types.js';
import { TASKS } from '../../jobs/task-list.js';
import { createTestDatabase } from '../support/test-database.js';

describe('log lines of a job', () => {
  afterEach(() => {
    configureLog({ silent: true });
    vi.restoreAllMocks();
  });

  it('a failed run is logged with its job id, task and attempt (the runner names them; no async store carries them)', async () => {
    const testDb = await createTestDatabase();
    const database = await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, pglite: await testDb.pglite() });
    const queue = openInProcessQueue(database.db, 20);
    configureLog({ silent: false });
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await migrateToLatest(database.db);
      let ran = 0;
      const failing: TaskFunction = async () => {
        ran += 1;
        throw new Error('the receiver is down');
      };
      await queue.enqueue('sweep', {});
      await queue.startWorkers([{ name: 'jobs', tasks: { ...TASKS, sweep: failing }, concurrency: 1 }], () => ({}) as JobEnvironment);
      await waitFor('the failing job to run', () => ran > 0, 10_000, 20);
      await queue.stop();
      flushLog();
      const lines = written
        .join('')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const failed = lines.find((l) => String(l.message).startsWith('job failed'));
      expect(failed).toMatchObject({ level: 'warn', task: 'sweep', attempt: 1, reason: 'the receiver is down' });
      expect(failed!.job_id).toMatch(/^\d+$/);
    } finally {
      vi.restoreAllMocks();
      await database.close();
      await testDb.drop();
    }
  });
});
