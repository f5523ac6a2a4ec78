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
import { createGoogleTenancyProbe, type GoogleTenancyProbe } from '../resolvers/checks/provider-domain/google-tenancy-probe.js';

export interface ServiceOverrides {
  /** Tests lower the allowances to reach them quickly. */
  readonly rateLimits?: Partial<Record<RateLimitClass, number>>;
  readonly env?: NodeJS.ProcessEnv;
  /** Tests replace the probe of Google's sign-in discovery (it would reach the internet). */
  readonly googleTenancy?: GoogleTenancyProbe;
}

/** Everything shared by all requests of one process; configuration errors throw here, at start. */
export function createServices(database: OpenedDatabase, config: ServiceConfig, overrides: ServiceOverrides = {}): Services {
  const env = overrides.env ?? process.env;
  const dnsConfig = dnsConfigFromEnv(env);
  const httpsConfig = httpsConfigFromEnv(env);
  const blacklist = blacklistConfigFromEnv(env);
  const registration = registrationConfigFromEnv(env);
  const markRoots = markRootsFromEnv(env);
  const checkLimits = checkLimitsFromEnv(env);
  const googleTenancy = overrides.googleTenancy ?? createGoogleTenancyProbe();
  const payments = createServicePayments(database.db, config, env);
  return {
    payments: payments.processor,
    sandboxStore: payments.sandboxStore,
    db: database.db,
    dbKind: database.kind,
    config,
    rateLimits: createRateLimits(rateLimitStore(database, env), { ...rateLimitsFromEnv(env), ...overrides.rateLimits }),
    checkLimits,
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
function rateLimitStore(database: OpenedDatabase, env: NodeJS.ProcessEnv): RateLimitStore {
  const url = (env.REDIS_URL ?? '').trim();
  if (url === '') return { kind: 'database', raw: database.raw };
  if (!/^rediss?:\/\//.test(url)) throw new Error(`REDIS_URL must start with redis:// or rediss://, not "${url}".`);
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
