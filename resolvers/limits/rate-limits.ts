import { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { RawQuery } from '../../db/open-database.js';
import { deleteExpiredRateLimits } from '../../db/rate-limits.js';
import { recordRateLimitRefusal } from '../../observability/metrics.js';
import { DomainError } from '../domain-error.js';

/**
 * The allowances of SPEC 8 plus the public checks' own. Counters live in the database's `rate_limits`
 * table through rate-limiter-flexible (an atomic upsert per request), or in Redis when REDIS_URL is
 * set (an atomic INCR with expiry), so every instance sharing the store shares one allowance.
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
  /**
   * Sign-in attempts per client address and e-mail address (docs/people.md): a guesser is stopped,
   * while the person signing in from their own address still gets in.
   */
  signInEmail: { points: 10, duration: 900, per: 'client address and e-mail address' },
  /** Sign-in attempts per e-mail address from anywhere: past this, each answer is slowed down, never refused. */
  signInSlow: { points: 10, duration: 900, per: 'e-mail address' },
  /** Sign-in, sign-up and reset requests per client address: slows trying many addresses. */
  signInAddress: { points: 30, duration: 900, per: 'client address' },
  /** The MCP sign-in's open client registrations (POST /oauth/register) per client address: enough for any assistant, too few to fill the table. */
  oauthRegistration: { points: 30, duration: 3600, per: 'client address' },
  /** "Ask for a plan" e-mails to the operator, per account: enough to follow up, too few to flood the inbox. */
  planRequest: { points: 5, duration: 86_400, per: 'account' },
} as const;

export type RateLimitClass = keyof typeof RATE_LIMIT_CLASSES;

/** Where an allowance stands after a count (or a look): what the X-RateLimit-* headers say. */
export interface RateLimitOutcome {
  /** The allowance for the window (the account's own when the operator set one). */
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window ends and the allowance is whole again. */
  readonly resetSeconds: number;
}

export interface RateLimits {
  /**
   * Counts `points` calls (default one); throws a 429 DomainError with retry_after when the allowance
   * cannot cover them all (then none runs). `allowance` replaces the class's default (an account's
   * operator-set limit).
   */
  consume(kind: RateLimitClass, subject: string, allowance?: number, points?: number): Promise<RateLimitOutcome>;
  /** Where the allowance stands, counting nothing (for answers that spend none, such as a 405). */
  peek(kind: RateLimitClass, subject: string, allowance?: number): Promise<RateLimitOutcome>;
  /** Resolves once the store answers (Redis connected); rejects with a sentence after 5 s. */
  ready(): Promise<void>;
  /** Stops the expired-counter sweep and closes the store's connection when it owns one (Redis). */
  close(): Promise<void>;
}

/** How often expired counters are deleted from the database, and how long past its window one is kept. */
const EXPIRY_SWEEP_MS = 5 * 60_000;
const EXPIRED_KEPT_MS = 60 * 60_000;

/** Where the counters live. */
export type RateLimitStore =
  | { readonly kind: 'database'; readonly raw: RawQuery }
  | { readonly kind: 'redis'; readonly client: Redis; readonly keyPrefix: string };

export function createRateLimits(store: RateLimitStore, overrides: Partial<Record<RateLimitClass, number>> = {}): RateLimits {
  const defaultPoints = (kind: RateLimitClass): number => overrides[kind] ?? RATE_LIMIT_CLASSES[kind].points;
  // One limiter per class and allowance: the counter key is the same for every allowance, so an
  // operator raising an account's limit keeps the count already made this window.
  const limiters = new Map<string, RateLimiterAbstract>();
  // Counters whose window ended over an hour ago are deleted every five minutes (as the library's own
  // timer did), by a timer close() stops; a failed delete is retried at the next tick.
  const expiryTimer =
    store.kind === 'database'
      ? setInterval(() => {
          void deleteExpiredRateLimits(store.raw, Date.now() - EXPIRED_KEPT_MS).catch(() => {});
        }, EXPIRY_SWEEP_MS).unref()
      : null;
  // PGlite reports a SELECT's rowCount as 0 (its affectedRows), and rate-limiter-flexible's get()
  // reads rowCount 0 as "no counter": count the rows a SELECT returns.
  const raw =
    store.kind === 'database'
      ? {
          query: async (q: Parameters<RawQuery['query']>[0]) => {
            const r = await store.raw.query(q);
            return { ...r, rowCount: Math.max(r.rowCount, r.rows.length) };
          },
        }
      : null;
  const limiterFor = (kind: RateLimitClass, points: number): RateLimiterAbstract => {
    const id = `${kind}:${points}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      const options = { keyPrefix: kind, points, duration: RATE_LIMIT_CLASSES[kind].duration };
      limiter =
        store.kind === 'database'
          ? new RateLimiterPostgres({
              ...options,
              storeClient: raw,
              storeType: 'client',
              tableName: 'rate_limits',
              tableCreated: true,
              // Its own timer re-arms itself with no way to stop it, so a stopped service kept it (and
              // through it the database) for up to five minutes; expired counters are cleared below.
              clearExpiredByTimeout: false,
            })
          : // Refuse at once (503) rather than queue while Redis is down: a request must not hang on its count.
            new RateLimiterRedis({ ...options, keyPrefix: `${store.keyPrefix}:${kind}`, storeClient: store.client, rejectIfRedisNotReady: true });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  const unavailable = () =>
    new DomainError(
      'rate_limit_unavailable',
      `The request could not be counted because the ${store.kind === 'redis' ? 'rate-limit store (Redis)' : 'database'} cannot be reached; retry in a few seconds.`,
      { retry_after: 5 },
    );

  return {
    async consume(kind, subject, allowance, count = 1) {
      const points = allowance ?? defaultPoints(kind);
      try {
        const res = await limiterFor(kind, points).consume(`${kind}:${subject}`, count);
        return outcome(points, res, kind);
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
          const spec = RATE_LIMIT_CLASSES[kind];
          recordRateLimitRefusal(kind);
          const asked = count > 1 ? ` (this request asked for ${count})` : '';
          throw new DomainError(
            'rate_limited',
            `Too many requests: the ${kind} allowance is ${points} per ${spec.duration === 60 ? 'minute' : spec.duration === 3600 ? 'hour' : `${spec.duration / 60} minutes`} per ${spec.per}${asked}; wait ${retryAfter} seconds and retry.`,
            { retry_after: retryAfter, remaining: Math.max(0, error.remainingPoints), limit: points },
          );
        }
        throw unavailable();
      }
    },
    async peek(kind, subject, allowance) {
      const points = allowance ?? defaultPoints(kind);
      try {
        return outcome(points, await limiterFor(kind, points).get(`${kind}:${subject}`), kind);
      } catch {
        throw unavailable();
      }
    },
    async ready() {
      if (store.kind !== 'redis' || store.client.status === 'ready') return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('Redis at REDIS_URL did not answer within 5 seconds; check the URL or unset REDIS_URL to keep the counters in the database.')),
          5000,
        );
        store.client.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    async close() {
      if (expiryTimer) clearInterval(expiryTimer);
      if (store.kind === 'redis') await store.client.quit().catch(() => store.client.disconnect());
    },
  };
}

/** A count's result as headers see it; no counter yet means the whole allowance and a fresh window. */
function outcome(points: number, res: RateLimiterRes | null, kind: RateLimitClass): RateLimitOutcome {
  if (!res) return { limit: points, remaining: points, resetSeconds: RATE_LIMIT_CLASSES[kind].duration };
  return { limit: points, remaining: Math.max(0, res.remainingPoints), resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)) };
}
