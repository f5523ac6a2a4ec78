import { describe, expect, it } from 'vitest';
import { VERIFY_LIMIT_RUN, benchBulk } from '../../bench/bulk.js';

describe('bench:bulk', () => {
  it('asks every distinct question exactly once in the three bulk runs and reports its figures', async () => {
    const result = await benchBulk({ delayMs: 5, concurrency: 32 });
    expect(result.runs.map((r) => r.name)).toEqual(['verify-email (2,000 addresses, 400 domains)', VERIFY_LIMIT_RUN, 'segment-esp (1,000 domains)']);
    for (const run of result.runs) {
      expect(run.questions_per_distinct).toBe(1);
      expect(run.wall_per_ideal).toBeGreaterThan(0);
      expect(run.peak_rss_mb).toBeGreaterThan(0);
      // The loop turned during the run, so a stall was measured (its bound is the bench's target, not a test's).
      expect(run.longest_stall_ms).toBeGreaterThan(0);
    }
    // 400 MX + 20 MX hosts' A (an alias shows in the A answer: no CNAME question) + 100 A/AAAA for the no-MX domains.
    expect(result.runs[0]?.distinct_questions).toBe(520);
    // 700 MX + 7 shared MX hosts' A.
    expect(result.runs[1]?.distinct_questions).toBe(707);
  });
});
