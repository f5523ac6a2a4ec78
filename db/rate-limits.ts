import type { RawQuery } from './open-database.js';

/**
 * Deletes the rate-limit counters whose window ended before `before` (epoch ms). The counters are
 * written by rate-limiter-flexible through the raw client (resolvers/limits/rate-limits.ts), so this
 * runs on the same client rather than through Kysely.
 */
export async function deleteExpiredRateLimits(raw: RawQuery, before: number): Promise<void> {
  await raw.query({ text: 'DELETE FROM rate_limits WHERE expire < $1', values: [before] });
}
