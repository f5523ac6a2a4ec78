import type { DnsLookup } from '../dns/dns-types.js';

/** A bounded HTTPS GET used by MTA-STS and BIMI: resolves through the checks' DNS, refuses private addresses. */
export interface HttpsFetcher {
  get(url: string, options: { readonly maxBytes: number; readonly timeoutMs: number }): Promise<HttpsFetchResult>;
  /**
   * The same fetcher, resolving host names through `dns`: a check run passes its own view of the
   * request's lookup, so the addresses a fetch used count in that check's DNSSEC status. Fakes that
   * fetch nothing may leave it out.
   */
  withLookup?(dns: DnsLookup): HttpsFetcher;
}

export type HttpsFetchResult =
  | { readonly ok: true; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: Buffer; readonly url: string }
  | { readonly ok: false; readonly reason: string; readonly code: string };
