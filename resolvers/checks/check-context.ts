import type { DnsLookup } from '../../clients/dns/dns-types.js';
import type { HttpsFetcher } from '../../clients/http/https-fetcher.js';

/** Everything a check needs from the outside world; built once per request, nothing shared between requests. */
export interface CheckContext {
  readonly dns: DnsLookup;
  readonly https: HttpsFetcher;
  readonly now: () => Date;
}
