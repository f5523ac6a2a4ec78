import type { Caller } from '../auth/api-keys.js';
import { accountAllowance } from './account-limits.js';
import { consumeForKey } from './count-caller.js';
import type { RateLimitClass, RateLimitOutcome, RateLimits } from './rate-limits.js';

/**
 * Who is calling, as the doors count them. A key is counted per key at its account's allowances;
 * anyone else per client address at the public allowance. The portal's signed-in session slots in
 * as one more member ({ kind: 'session', accountId, sessionId, limits }) with its own subject.
 */
export type Principal = { readonly kind: 'key'; readonly caller: Caller } | { readonly kind: 'address'; readonly clientAddress: string };

/** What one request spends: how many operations of each class it runs. */
export interface Spend {
  readonly read: number;
  readonly change: number;
}

export const NOTHING: Spend = { read: 0, change: 0 };

/**
 * The allowance class of one operation, from the operation table's `rateLimit` (or a GraphQL root
 * field's kind). A placement counts against changing here, like every call that is not a read
 * (SPEC 8); its hourly order allowance is counted where the order is placed
 * (resolvers/orders/place-order.ts), once, whichever door it came through.
 */
export function spendFor(kind: RateLimitClass, count = 1): Spend {
  return kind === 'read' || kind === 'public' ? { read: count, change: 0 } : { read: 0, change: count };
}

export function addSpend(a: Spend, b: Spend): Spend {
  return { read: a.read + b.read, change: a.change + b.change };
}

/**
 * The door policy shared by REST, MCP and /graphql: counts a request's operations against the
 * caller's allowances, all or nothing, and returns the outcome its answer's X-RateLimit-* headers
 * report (the tightest of the classes spent). A request that spends nothing looks without counting,
 * so every answer carries the headers. A refusal is the rate_limited DomainError whose fields carry
 * `retry_after`, `remaining` and `limit`.
 */
export async function spendAllowance(rateLimits: RateLimits, principal: Principal, spend: Spend): Promise<RateLimitOutcome> {
  if (principal.kind === 'address') {
    const points = spend.read + spend.change;
    return points > 0 ? rateLimits.consume('public', principal.clientAddress, undefined, points) : rateLimits.peek('public', principal.clientAddress);
  }
  const { caller } = principal;
  const outcomes: RateLimitOutcome[] = [];
  // Changing first: the scarcer allowance refuses before the reading one is spent.
  if (spend.change > 0) outcomes.push(await consumeForKey(rateLimits, 'change', caller, spend.change));
  if (spend.read > 0) outcomes.push(await consumeForKey(rateLimits, 'read', caller, spend.read));
  if (outcomes.length === 0) outcomes.push(await rateLimits.peek('read', caller.subject, accountAllowance(caller.limits, 'read')));
  return tightest(outcomes);
}

/**
 * Where the caller's allowance stands, counting nothing; null when the store cannot say (an answer
 * that spends nothing, such as a 401 or 405, is not turned into a 503 for want of its headers).
 */
export async function lookAtAllowance(rateLimits: RateLimits, principal: Principal): Promise<RateLimitOutcome | null> {
  return spendAllowance(rateLimits, principal, NOTHING).catch(() => null);
}

function tightest(outcomes: readonly RateLimitOutcome[]): RateLimitOutcome {
  return outcomes.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}

/** The headers every answer of every door carries (SPEC 8, plus Limit and Reset for browsers and clients). */
export function rateLimitHeaders(outcome: RateLimitOutcome | null): Record<string, string> {
  if (!outcome) return {};
  return {
    'X-RateLimit-Limit': String(outcome.limit),
    'X-RateLimit-Remaining': String(outcome.remaining),
    'X-RateLimit-Reset': String(outcome.resetSeconds),
  };
}

/** The headers of a 429 (or of any refusal that carries its own count). */
export function refusalRateLimitHeaders(error: { readonly status: number; readonly extras: Readonly<Record<string, unknown>> }): Record<string, string> {
  if (error.status !== 429 || typeof error.extras.retry_after !== 'number') return {};
  const headers: Record<string, string> = {
    'X-RateLimit-Remaining': String(typeof error.extras.remaining === 'number' ? error.extras.remaining : 0),
    'X-RateLimit-Reset': String(error.extras.retry_after),
  };
  if (typeof error.extras.limit === 'number') headers['X-RateLimit-Limit'] = String(error.extras.limit);
  return headers;
}

/** The principal behind a request's context: its key when valid, else its client address. */
export async function principalOf(ctx: { readonly caller: () => Promise<Caller | null>; readonly clientAddress: string }): Promise<Principal> {
  const caller = await ctx.caller();
  return caller ? { kind: 'key', caller } : { kind: 'address', clientAddress: ctx.clientAddress };
}
