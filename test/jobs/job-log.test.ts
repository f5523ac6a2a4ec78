import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushLog } from '../../server/log.js';
import { migrateToLatest } from '../../db/migrate.js';
import { openDatabase } from '../../db/open-database.js';
import { openInProcessQueue } from '../../jobs/in-process-runner.js';
import type { JobEnvironment, TaskFunction } from '../../jobs/job-types.js';
import { TASKS } from '../../jobs/task-list.js';
import { createTestDatabase } from '../support/test-database.js';

describe('log lines of a job', () => {
  const level = process.env.LOG_LEVEL;
  afterEach(() => {
    process.env.LOG_LEVEL = level;
    vi.restoreAllMocks();
  });

  it('a failed run is logged with its job id, task and attempt (the runner names them; no async store carries them)', async () => {
    const testDb = await createTestDatabase();
    const database = await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, template: testDb.template });
    const queue = openInProcessQueue(database.db, 20);
    process.env.LOG_LEVEL = 'info';
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
      await queue.startWorkers({ ...TASKS, sweep: failing }, () => ({}) as JobEnvironment, 1);
      for (let i = 0; i < 100 && ran === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
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
