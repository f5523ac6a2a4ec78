import type { OpenedDatabase } from '../db/open-database.js';
import type { Services } from '../resolvers/context.js';
import type { ServiceConfig, Settings } from '../config/settings.js';
import { Redis } from 'ioredis';
import { createRateLimits, type RateLimitClass, type RateLimitStore } from '../resolvers/limits/rate-limits.js';
import { createDnsLookup } from '../clients/dns/create-dns-lookup.js';
import { createHttpsFetcher } from '../clients/http/create-https-fetcher.js';
import { loadMarkRoots } from '../resolvers/checks/bimi/mark-roots.js';
import { createServicePayments } from './create-payments.js';
import { createGoogleTenancyProbe, type GoogleTenancyProbe } from '../resolvers/checks/provider-domain/google-tenancy-probe.js';
import { createDnsblLivenessBoard } from '../resolvers/checks/blacklist/dnsbl-liveness-board.js';
import { findDnsblLiveness } from '../db/dnsbl-liveness.js';
import { getRdapJson } from '../clients/registry/rdap-client.js';

export interface ServiceOverrides {
  /** Tests lower the allowances to reach them quickly. */
  readonly rateLimits?: Partial<Record<RateLimitClass, number>>;
  /** The environment the settings are read from (config/settings.ts); process.env when absent. */
  readonly env?: NodeJS.ProcessEnv;
  /** Tests replace the probe of Google's sign-in discovery (it would reach the internet). */
  readonly googleTenancy?: GoogleTenancyProbe;
}

/**
 * Everything shared by all requests of one process, from the settings read at start (a BIMI roots
 * file that cannot be read stops the start here, before anything opens).
 */
export function createServices(database: OpenedDatabase, config: ServiceConfig, settings: Settings, overrides: ServiceOverrides = {}): Services {
  const { dns: dnsConfig, https: httpsConfig, blacklist, registration, checkLimits, rateLimits } = settings;
  const markRoots = loadMarkRoots(settings.extraMarkRootsFile);
  const googleTenancy = overrides.googleTenancy ?? createGoogleTenancyProbe();
  const payments = createServicePayments(database.db, config, settings.stripe);
  const dnsblLiveness = createDnsblLivenessBoard({ read: () => findDnsblLiveness(database.db) }, settings.dnsblLiveness);
  return {
    payments: payments.processor,
    sandboxStore: payments.sandboxStore,
    db: database.db,
    dbKind: database.kind,
    config,
    rateLimits: createRateLimits(rateLimitStore(database, settings.redis), { ...rateLimits, ...overrides.rateLimits }),
    checkLimits,
    keyMode: settings.keyMode,
    faults: settings.faults,
    secretsKey: config.secretsKey,
    publishing: settings.publishing,
    dnsblLiveness,
    createCheckContext: (scope) => {
      const dns = createDnsLookup(dnsConfig, scope);
      return {
        dns,
        https: createHttpsFetcher(dns, httpsConfig),
        now: () => new Date(),
        blacklist,
        dnsblLiveness,
        registration,
        rdapGet: getRdapJson,
        googleTenancy,
        markRoots,
      };
    },
  };
}

/**
 * REDIS_URL (redis://host:6379/0) moves the rate-limit counters to Redis; unset, they live in the
 * database's rate_limits table. The client never queues commands while disconnected, so an outage is
 * a quick 503 rather than a hanging request. REDIS_KEY_PREFIX keeps two deployments (or test runs)
 * sharing one Redis apart.
 */
function rateLimitStore(database: OpenedDatabase, redis: Settings['redis']): RateLimitStore {
  if (redis === null) return { kind: 'database', raw: database.raw };
  const client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false });
  // Connection errors surface as 503s on the requests they affect; the client reconnects by itself.
  client.on('error', () => {});
  return { kind: 'redis', client, keyPrefix: redis.keyPrefix };
}
