import type { Caller } from '../auth/api-keys.js';
import { accountAllowance } from './account-limits.js';
import type { RateLimitOutcome, RateLimits } from './rate-limits.js';

/**
 * Counts `points` calls of a key against its class, at the account's own allowance when the operator
 * set one. The doors count through door-policy.ts, which uses the same subject and allowance.
 */
export function consumeForKey(rateLimits: RateLimits, kind: 'read' | 'change', caller: Caller, points = 1): Promise<RateLimitOutcome> {
  return rateLimits.consume(kind, caller.subject, accountAllowance(caller.limits, kind), points);
}
