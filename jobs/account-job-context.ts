import { randomUUID } from 'node:crypto';
import { createContext, type Context, type Services } from '../resolvers/context.js';
import type { Caller } from '../resolvers/auth/api-keys.js';
import { SCOPES } from '../resolvers/auth/scopes.js';

/**
 * A context in which a job acts for one account, as the account's own resolvers would for a caller
 * of it: the same ownership checks, the same journal. Only jobs the account switched on run so (the
 * DMARC ramp's automatic advancing); the caller is no key and no person, and says so in its subject.
 */
export function accountJobContext(services: Services, accountId: number, job: string): Context {
  const base = createContext(services, { authorization: null, requestId: `job_${randomUUID()}`, clientAddress: 'jobs', door: 'rest' });
  const caller: Caller = {
    kind: 'key',
    accountId,
    keyId: null,
    userId: null,
    role: 'owner',
    sessionId: null,
    subject: `job:${job}:${accountId}`,
    scopes: [...SCOPES],
    limits: { readPerMinute: null, changePerMinute: null, ordersPerHour: null },
  };
  return { ...base, caller: () => Promise.resolve(caller), knownCaller: () => caller };
}
