import { RateLimiterPostgres, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RawQuery } from '../../db/open-database.js';
import { ApiError } from '../api-error.js';

/**
 * The allowances of SPEC 8 plus the public checks' own. Counters live in the database's `rate_limits`
 * table through rate-limiter-flexible (an atomic upsert per request), so every instance sharing one
 * PostgreSQL shares one allowance.
 */
export const RATE_LIMIT_CLASSES = {
  /** Every GET and every MCP message, per key. */
  read: { points: 240, duration: 60, per: 'key' },
  /** Every other call, per key. */
  change: { points: 60, duration: 60, per: 'key' },
  /** Placing orders, per account, shared by REST, MCP and the command line. */
  order: { points: 12, duration: 3600, per: 'account' },
  /** Public checks, per client address (our decision: SPEC leaves it open; see docs/api.md). */
  public: { points: 120, duration: 60, per: 'client address' },
} as const;

export type RateLimitClass = keyof typeof RATE_LIMIT_CLASSES;

export interface RateLimitOutcome {
  readonly remaining: number;
}

export interface RateLimits {
  /** Counts one request; throws a 429 ApiError with retry_after when the allowance is spent. */
  consume(kind: RateLimitClass, subject: string): Promise<RateLimitOutcome>;
}

export function createRateLimits(raw: RawQuery | null, overrides: Partial<Record<RateLimitClass, number>> = {}): RateLimits {
  const limiters = Object.fromEntries(
    Object.entries(RATE_LIMIT_CLASSES).map(([name, spec]) => {
      const options = { keyPrefix: name, points: overrides[name as RateLimitClass] ?? spec.points, duration: spec.duration };
      const limiter: RateLimiterAbstract = raw
        ? new RateLimiterPostgres({ ...options, storeClient: raw, storeType: 'client', tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: true })
        : new RateLimiterMemory(options);
      return [name, limiter];
    }),
  ) as Record<RateLimitClass, RateLimiterAbstract>;

  return {
    async consume(kind, subject) {
      try {
        const res = await limiters[kind].consume(`${kind}:${subject}`);
        return { remaining: res.remainingPoints };
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
          const spec = RATE_LIMIT_CLASSES[kind];
          throw new ApiError(429, 'rate_limited',
            `Too many requests: the ${kind} allowance is ${limiters[kind].points} per ${spec.duration === 60 ? 'minute' : 'hour'} per ${spec.per}; wait ${retryAfter} seconds and retry.`,
            { retry_after: retryAfter, remaining: 0 });
        }
        throw new ApiError(503, 'rate_limit_unavailable', 'The request could not be counted because the database cannot be reached; retry in a few seconds.', { retry_after: 5 });
      }
    },
  };
}
