import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushLog, jobScope, log } from '../../server/log.js';

describe('log lines inside a job', () => {
  const level = process.env.LOG_LEVEL;
  afterEach(() => {
    process.env.LOG_LEVEL = level;
    vi.restoreAllMocks();
  });

  it('carry the job id and task name', () => {
    process.env.LOG_LEVEL = 'info';
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    jobScope.run({ jobId: '42', task: 'build_domain' }, () => log('info', 'inside'));
    log('info', 'outside');
    flushLog();
    // Lines of one turn are written together, one per line.
    const written = lines.join('').trimEnd().split('\n');
    expect(JSON.parse(written[0]!)).toMatchObject({ message: 'inside', job_id: '42', task: 'build_domain' });
    expect(JSON.parse(written[1]!)).not.toHaveProperty('job_id');
  });
});
