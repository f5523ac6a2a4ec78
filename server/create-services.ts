import type { OpenedDatabase } from '../db/open-database.js';
import type { Services } from '../resolvers/context.js';
import type { ServiceConfig } from '../resolvers/service-config.js';
import { createRateLimits, type RateLimitClass } from '../resolvers/limits/rate-limits.js';
import { createDnsLookup, dnsConfigFromEnv } from '../resolvers/checks/dns/create-dns-lookup.js';
import { createHttpsFetcher, httpsConfigFromEnv } from '../resolvers/checks/http/create-https-fetcher.js';

export interface ServiceOverrides {
  /** Tests lower the allowances to reach them quickly. */
  readonly rateLimits?: Partial<Record<RateLimitClass, number>>;
  readonly env?: NodeJS.ProcessEnv;
}

/** Everything shared by all requests of one process; configuration errors throw here, at start. */
export function createServices(database: OpenedDatabase, config: ServiceConfig, overrides: ServiceOverrides = {}): Services {
  const env = overrides.env ?? process.env;
  const dnsConfig = dnsConfigFromEnv(env);
  const httpsConfig = httpsConfigFromEnv(env);
  return {
    db: database.db,
    dbKind: database.kind,
    config,
    rateLimits: createRateLimits(database.raw, overrides.rateLimits),
    createCheckContext: () => {
      const dns = createDnsLookup(dnsConfig);
      return { dns, https: createHttpsFetcher(dns, httpsConfig), now: () => new Date() };
    },
  };
}
