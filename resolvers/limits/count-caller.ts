import type { Caller } from '../auth/api-keys.js';
import { accountAllowance } from './account-limits.js';
import type { RateLimitOutcome, RateLimits } from './rate-limits.js';

/** Counts one call of a key against its class, at the account's own allowance when the operator set one. */
export function consumeForKey(rateLimits: RateLimits, kind: 'read' | 'change', caller: Caller): Promise<RateLimitOutcome> {
  return rateLimits.consume(kind, `key:${caller.keyId}`, accountAllowance(caller.limits, kind));
}
