import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { OpenedDatabase } from '../../db/open-database.js';
import { createRateLimits } from '../../resolvers/limits/rate-limits.js';
import { openMigratedTestDatabase } from '../support/test-database.js';

// Counters kept in the database are deleted an hour after their window ends, by a sweep every five
// minutes that stops with the service: rate-limiter-flexible's own timer could not be stopped and
// held a stopped service's database for up to five minutes.
let database: OpenedDatabase;
beforeAll(async () => {
  database = await openMigratedTestDatabase();
});
afterAll(async () => {
  vi.useRealTimers();
  await database?.close();
});

const keys = async () => (await database.raw.query({ text: 'SELECT key FROM rate_limits' })).rows.map((r: { key: string }) => r.key).sort();

it('deletes counters an hour past their window every five minutes, and stops sweeping once closed', async () => {
  const now = Date.now();
  await database.raw.query({
    text: 'INSERT INTO rate_limits (key, points, expire) VALUES ($1, 1, $2), ($3, 1, $4), ($5, 1, $6)',
    values: ['old', now - 2 * 3_600_000, 'recent', now - 60_000, 'open', now + 60_000],
  });
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const limits = createRateLimits({ kind: 'database', raw: database.raw });
  await limits.consume('read', 'key-a');
  const counted = (await keys()).filter((key) => !['old', 'open', 'recent'].includes(key));
  expect(counted).toHaveLength(1);
  expect(counted[0]).toContain('key-a');

  await vi.advanceTimersByTimeAsync(5 * 60_000);
  await vi.waitFor(async () => expect(await keys()).toEqual(['open', counted[0], 'recent'].sort()));

  await limits.close();
  expect(vi.getTimerCount()).toBe(0);
  await database.raw.query({ text: 'INSERT INTO rate_limits (key, points, expire) VALUES ($1, 1, $2)', values: ['later', now - 2 * 3_600_000] });
  await vi.advanceTimersByTimeAsync(10 * 60_000);
  expect(await keys()).toEqual(['later', 'open', counted[0], 'recent'].sort());
});
