import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { FullCheckContext } from './checks/full-check-context.js';
import type { RateLimits } from './limits/rate-limits.js';
import { authenticateKey, bearerToken, KEY_PREFIX, type Caller } from './auth/api-keys.js';
import type { CheckLimits, FaultSettings, PublishingConfig, ServiceConfig } from '../config/settings.js';
import type { PaymentProcessor } from '../clients/payments/payment-processor.js';
import type { SandboxStore } from '../clients/payments/sandbox-store.js';
import type { DnsRequestScope } from '../clients/dns/create-dns-lookup.js';
import { createRequestScope, type RequestScope } from './limits/request-scope.js';
import { authenticateSession } from './people/authenticate-session.js';
import { authenticateAccessToken } from './auth/oauth-tokens.js';
import type { JobHooks } from './job-hooks.js';
import type { LogIds } from '../observability/log-ids.js';
import type { AlertMailer } from '../clients/mail/alert-mailer.js';
import type { DnsblLivenessBoard } from './checks/blacklist/dnsbl-liveness-board.js';
import type { MailboxProvider } from '../clients/mailboxes/mailbox-provider.js';
import type { ReportPool } from './reports/report-pool.js';

/** What lives for the whole process: built once at start, shared by every request. */
export interface Services {
  readonly db: Kysely<Database>;
  readonly dbKind: 'pglite' | 'postgres';
  readonly rateLimits: RateLimits;
  readonly config: ServiceConfig;
  /**
   * A fresh DNS loader and HTTPS fetcher for one request, spending the request's question budget and
   * stopping on its signal: nothing is shared between requests.
   */
  readonly createCheckContext: (scope: DnsRequestScope) => FullCheckContext;
  /** The blocklists' liveness from the background probe, shared by every request (and, through the database, every instance). */
  readonly dnsblLiveness: DnsblLivenessBoard;
  /** The bounds on one request's checks (CHECKS_DNS_BUDGET, CHECKS_DEADLINE_MS, CHECKS_MAX_ANSWER_BYTES). */
  readonly checkLimits: CheckLimits;
  /** Stripe when STRIPE_SECRET_KEY is set, else the embedded sandbox processor. */
  readonly payments: PaymentProcessor;
  /** SECRETS_KEY: the AES-256-GCM key of resolvers/secrets/encrypt-secret.ts (DNS connection secrets, DKIM private keys). */
  readonly secretsKey: Buffer;
  /** How DNS connections reach customers' DNS servers and Cloudflare. */
  readonly publishing: PublishingConfig;
  /** The sandbox processor's state, read by its card page at {api_url}/sandbox/card. */
  readonly sandboxStore: SandboxStore;
  /** The background work behind placements and switches (jobs/start-jobs.ts); absent in bare test setups. */
  readonly jobs?: JobHooks;
  /** The provisioning adapter as the resolvers see it (passwords, mailbox status); absent in bare test setups. */
  readonly mailboxProvider?: MailboxProvider;
  /** Password resets and invitations go out through this (SMTP_URL, else the outbox folder). */
  readonly mailer?: AlertMailer;
  /** SELF_SIGN_UP=off: POST /auth/sign-up refuses, people join by invitation or create-user only. */
  readonly selfSignUp?: boolean;
  /** The worker threads that unpack and parse reports (resolvers/reports/report-pool.ts); absent in bare test setups. */
  readonly reportPool?: ReportPool;
  /** Keys made in the portal read sk_test_ in sandbox mode, sk_live_ with Stripe; test when absent. */
  readonly keyMode?: 'live' | 'test';
  /** Test-only hooks (SERVICE_FAULT, IDEMPOTENCY_CLAIM_MS); absent in bare test setups. */
  readonly faults?: FaultSettings;
}

/**
 * One per HTTP request, for every door (/graphql with all its aliases and batched operations, REST,
 * every MCP message of one POST): what the request's checks share lives here.
 */
export interface Context {
  readonly services: Services;
  readonly requestId: string;
  /** What this request's log lines carry: our own id and a caller's beside it (observability/log.ts). */
  readonly logIds: LogIds;
  readonly clientAddress: string;
  readonly now: () => Date;
  /**
   * The caller behind the bearer key, or (on /graphql only, without a key) the person behind the
   * session cookie; null without either or with an unknown, revoked or expired one.
   */
  readonly caller: () => Promise<Caller | null>;
  /** The caller once `caller()` has settled; undefined before. */
  readonly knownCaller: () => Caller | null | undefined;
  /** The request's check context, made on first use. */
  readonly checks: () => FullCheckContext;
  /** The request's budget, deadline, cancellation and check counters, made on first use. */
  readonly scope: () => RequestScope;
  /** Whether the request carried any Authorization header (for the 401 sentence). */
  readonly sentKey: boolean;
  /** The door the request came through: a fact some records keep (which door showed passwords), never a branch of wording (each door words its refusals, scripts/lint-domain-errors.ts). */
  readonly door: 'rest' | 'mcp' | 'graphql';
}

export interface RequestFacts {
  readonly authorization: string | null;
  /** The session cookie's token; only /graphql passes it (REST and MCP are for keys). */
  readonly sessionToken?: string | null;
  readonly requestId: string;
  /** Our own id and the caller's for log lines (serve-http.ts); without them, requestId alone. */
  readonly logIds?: LogIds;
  readonly clientAddress: string;
  /** Aborted when the caller hangs up (serve-http.ts); absent for in-process callers. */
  readonly signal?: AbortSignal;
  /** The door; /graphql when not said. */
  readonly door?: 'rest' | 'mcp' | 'graphql';
}

export function createContext(services: Services, facts: RequestFacts): Context {
  const token = bearerToken(facts.authorization);
  let caller: Promise<Caller | null> | undefined;
  let known: Caller | null | undefined;
  let checks: FullCheckContext | undefined;
  let scope: RequestScope | undefined;
  const requestScope = () => (scope ??= createRequestScope(services.checkLimits, facts.signal));
  return {
    services,
    requestId: facts.requestId,
    logIds: facts.logIds ?? { request_id: facts.requestId },
    clientAddress: facts.clientAddress,
    now: () => new Date(),
    sentKey: facts.authorization !== null,
    door: facts.door ?? 'graphql',
    caller: () => (caller ??= findCaller(services, token, facts.sessionToken ?? null, facts.door === 'mcp').then((found) => (known = found))),
    knownCaller: () => known,
    checks: () => (checks ??= services.createCheckContext({ budget: requestScope().budget, signal: requestScope().signal })),
    scope: requestScope,
  };
}

/**
 * A bearer key wins over a cookie: a request that sends a key is a key's request. On /mcp a bearer
 * that is not an API key (sk_...) is an OAuth access token, issued for that endpoint only.
 */
function findCaller(services: Services, token: string | null, sessionToken: string | null, takesAccessTokens: boolean): Promise<Caller | null> {
  if (token && takesAccessTokens && !isApiKeyShaped(token)) return authenticateAccessToken(services.db, token);
  if (token) return authenticateKey(services.db, token);
  if (sessionToken) return authenticateSession(services.db, sessionToken);
  return Promise.resolve(null);
}

function isApiKeyShaped(token: string): boolean {
  return token.startsWith(KEY_PREFIX.live) || token.startsWith(KEY_PREFIX.test);
}
