import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { FullCheckContext } from './checks/full-check-context.js';
import type { RateLimits } from './limits/rate-limits.js';
import { authenticateKey, bearerToken, type Caller } from './auth/api-keys.js';
import type { ServiceConfig } from './service-config.js';
import type { PaymentProcessor } from './payments/payment-processor.js';
import type { SandboxStore } from './payments/sandbox-store.js';

/** What lives for the whole process: built once at start, shared by every request. */
export interface Services {
  readonly db: Kysely<Database>;
  readonly dbKind: 'pglite' | 'postgres';
  readonly rateLimits: RateLimits;
  readonly config: ServiceConfig;
  /** A fresh DNS loader and HTTPS fetcher for one request: nothing is shared between requests. */
  readonly createCheckContext: () => FullCheckContext;
  /** Stripe when STRIPE_SECRET_KEY is set, else the embedded sandbox processor. */
  readonly payments: PaymentProcessor;
  /** The sandbox processor's state, read by its card page at {api_url}/sandbox/card. */
  readonly sandboxStore: SandboxStore;
}

/** One per request, for every door (/graphql, REST, MCP). */
export interface Context {
  readonly services: Services;
  readonly requestId: string;
  readonly clientAddress: string;
  readonly now: () => Date;
  /** The caller behind the bearer key; null without a key or with an unknown or revoked one. */
  readonly caller: () => Promise<Caller | null>;
  /** The caller once `caller()` has settled; undefined before. */
  readonly knownCaller: () => Caller | null | undefined;
  /** The request's check context, made on first use. */
  readonly checks: () => FullCheckContext;
  /** Whether the request carried any Authorization header (for the 401 sentence). */
  readonly sentKey: boolean;
}

export interface RequestFacts {
  readonly authorization: string | null;
  readonly requestId: string;
  readonly clientAddress: string;
}

export function createContext(services: Services, facts: RequestFacts): Context {
  const token = bearerToken(facts.authorization);
  let caller: Promise<Caller | null> | undefined;
  let known: Caller | null | undefined;
  let checks: FullCheckContext | undefined;
  return {
    services,
    requestId: facts.requestId,
    clientAddress: facts.clientAddress,
    now: () => new Date(),
    sentKey: facts.authorization !== null,
    caller: () => (caller ??= (token ? authenticateKey(services.db, token) : Promise.resolve(null)).then((found) => (known = found))),
    knownCaller: () => known,
    checks: () => (checks ??= services.createCheckContext()),
  };
}
