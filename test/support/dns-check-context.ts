import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import type { TestDnsServer } from './dns-server.js';

/**
 * A check context for checks that only ask DNS: a fresh lookup against the local test server (short
 * timeout, one try, so failure cases stay fast), no HTTPS, and a fixed clock.
 */
export function dnsOnlyCheckContext(server: TestDnsServer): CheckContext {
  return {
    dns: createDnsLookup({ servers: [server.server], timeoutMs: 300, tries: 1, concurrency: 32 }),
    https: { get: () => Promise.reject(new Error('these checks fetch nothing over HTTPS')) },
    now: () => new Date('2026-09-26T00:00:00Z'),
  };
}
