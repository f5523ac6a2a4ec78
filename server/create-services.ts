import type { OpenedDatabase } from '../db/open-database.js';
import type { Services } from '../resolvers/context.js';
import type { ServiceConfig } from '../resolvers/service-config.js';
import { Redis } from 'ioredis';
import { createRateLimits, type RateLimitClass, type RateLimitStore } from '../resolvers/limits/rate-limits.js';
import { createDnsLookup, dnsConfigFromEnv } from '../resolvers/checks/dns/create-dns-lookup.js';
import { createHttpsFetcher, httpsConfigFromEnv } from '../resolvers/checks/http/create-https-fetcher.js';
import { blacklistConfigFromEnv } from '../resolvers/checks/blacklist/blacklist-config.js';
import { registrationConfigFromEnv } from '../resolvers/checks/domain-expiry/registration-config.js';
import { markRootsFromEnv } from '../resolvers/checks/bimi/mark-roots.js';
import { createServicePayments } from './create-payments.js';
import { checkLimitsFromEnv } from '../resolvers/limits/check-limits.js';
import { stripeConfigFromEnv } from '../resolvers/payments/stripe-processor.js';
import { trustedProxiesFromEnv } from './client-address.js';
import { selfSignUpFromEnv } from './self-sign-up.js';
import { secretsKeyFromEnv } from '../resolvers/secrets/secrets-key.js';
import { publishingConfigFromEnv } from '../resolvers/domains/publishing/publishing-config.js';
import { createGoogleTenancyProbe, type GoogleTenancyProbe } from '../resolvers/checks/provider-domain/google-tenancy-probe.js';

export interface ServiceOverrides {
  /** Tests lower the allowances to reach them quickly. */
  readonly rateLimits?: Partial<Record<RateLimitClass, number>>;
  readonly env?: NodeJS.ProcessEnv;
  /** Tests replace the probe of Google's sign-in discovery (it would reach the internet). */
  readonly googleTenancy?: GoogleTenancyProbe;
}

/**
 * Every setting the services read from the environment, parsed and checked in one place. startService
 * reads them before it opens the database, so a wrong value stops the start at once with a sentence
 * naming the variable (README's Environment table lists each; test/docs/environment-table.test.ts
 * compares the two).
 */
export interface ServiceSettings {
  readonly dns: ReturnType<typeof dnsConfigFromEnv>;
  readonly https: ReturnType<typeof httpsConfigFromEnv>;
  readonly blacklist: ReturnType<typeof blacklistConfigFromEnv>;
  readonly registration: ReturnType<typeof registrationConfigFromEnv>;
  readonly markRoots: ReturnType<typeof markRootsFromEnv>;
  readonly checkLimits: ReturnType<typeof checkLimitsFromEnv>;
  readonly rateLimits: Partial<Record<RateLimitClass, number>>;
  readonly secretsKey: ReturnType<typeof secretsKeyFromEnv>;
  readonly publishing: ReturnType<typeof publishingConfigFromEnv>;
}

export function readServiceSettings(env: NodeJS.ProcessEnv): ServiceSettings {
  const settings = {
    dns: dnsConfigFromEnv(env),
    https: httpsConfigFromEnv(env),
    blacklist: blacklistConfigFromEnv(env),
    registration: registrationConfigFromEnv(env),
    markRoots: markRootsFromEnv(env),
    checkLimits: checkLimitsFromEnv(env),
    rateLimits: rateLimitsFromEnv(env),
    secretsKey: secretsKeyFromEnv(env),
    publishing: publishingConfigFromEnv(env),
  };
  // Read where they are used, checked here so a typo stops the start rather than being ignored.
  stripeConfigFromEnv(env);
  trustedProxiesFromEnv(env);
  selfSignUpFromEnv(env);
  redisUrlFromEnv(env);
  testHooksFromEnv(env);
  return settings;
}

/** The test-only hooks: a value that is not one they know stops the start instead of doing nothing. */
function testHooksFromEnv(env: NodeJS.ProcessEnv): void {
  const fault = (env.SERVICE_FAULT ?? '').trim();
  if (fault !== '' && fault !== 'exit_after_charge') throw new Error(`SERVICE_FAULT must be unset or exit_after_charge (tests only), not "${fault}".`);
  allowanceFromEnv(env, 'IDEMPOTENCY_CLAIM_MS');
}

/** Everything shared by all requests of one process. */
export function createServices(database: OpenedDatabase, config: ServiceConfig, overrides: ServiceOverrides = {}, settings?: ServiceSettings): Services {
  const env = overrides.env ?? process.env;
  const {
    dns: dnsConfig,
    https: httpsConfig,
    blacklist,
    registration,
    markRoots,
    checkLimits,
    rateLimits,
    secretsKey,
    publishing,
  } = settings ?? readServiceSettings(env);
  const googleTenancy = overrides.googleTenancy ?? createGoogleTenancyProbe();
  const payments = createServicePayments(database.db, config, env);
  return {
    payments: payments.processor,
    sandboxStore: payments.sandboxStore,
    db: database.db,
    dbKind: database.kind,
    config,
    rateLimits: createRateLimits(rateLimitStore(database, env), { ...rateLimits, ...overrides.rateLimits }),
    checkLimits,
    secretsKey,
    publishing,
    createCheckContext: (scope) => {
      const dns = createDnsLookup(dnsConfig, scope);
      return { dns, https: createHttpsFetcher(dns, httpsConfig), now: () => new Date(), blacklist, registration, googleTenancy, markRoots };
    },
  };
}

/**
 * REDIS_URL (redis://host:6379/0) moves the rate-limit counters to Redis; unset, they live in the
 * database's rate_limits table. The client never queues commands while disconnected, so an outage is
 * a quick 503 rather than a hanging request.
 */
function redisUrlFromEnv(env: NodeJS.ProcessEnv): string | null {
  const url = (env.REDIS_URL ?? '').trim();
  if (url === '') return null;
  if (!/^rediss?:\/\//.test(url)) throw new Error(`REDIS_URL must start with redis:// or rediss://, not "${url}".`);
  return url;
}

function rateLimitStore(database: OpenedDatabase, env: NodeJS.ProcessEnv): RateLimitStore {
  const url = redisUrlFromEnv(env);
  if (url === null) return { kind: 'database', raw: database.raw };
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false });
  // Connection errors surface as 503s on the requests they affect; the client reconnects by itself.
  client.on('error', () => {});
  // REDIS_KEY_PREFIX keeps two deployments (or test runs) sharing one Redis apart.
  return { kind: 'redis', client, keyPrefix: (env.REDIS_KEY_PREFIX ?? '').trim() || 'svc' };
}

/**
 * RATE_LIMIT_READ_PER_MINUTE raises (or lowers) the per-key reading allowance of SPEC 8 (240) for
 * every key (load tests, benchmarks; one account's own limits are set with `admin set-limits`).
 * PUBLIC_RATE_LIMIT_PER_MINUTE sets the keyless checks' allowance per client address (120). A value
 * that is not a whole number of at least 1 stops the start with a sentence.
 */
function rateLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<Record<RateLimitClass, number>> {
  const read = allowanceFromEnv(env, 'RATE_LIMIT_READ_PER_MINUTE');
  const publicChecks = allowanceFromEnv(env, 'PUBLIC_RATE_LIMIT_PER_MINUTE');
  return { ...(read !== undefined && { read }), ...(publicChecks !== undefined && { public: publicChecks }) };
}

function allowanceFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1, not "${raw}".`);
  return value;
}
