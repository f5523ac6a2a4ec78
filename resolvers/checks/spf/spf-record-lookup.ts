import type { DnsAnswer, DnsLookup } from '../../../clients/dns/dns-types.js';
import { isSpfRecordText } from './parse-spf-record.js';
import { parseSpfRecordCached } from './spf-parse-cache.js';
import { lookupFailureText } from './spf-lookup-failure.js';
import type { ParsedSpfRecord } from './parse-spf-record.js';

/** What looking up a domain's SPF record found (RFC 7208 4.4, 4.5). */
export type SpfRecordLookup =
  | { readonly kind: 'found'; readonly domain: string; readonly record: ParsedSpfRecord }
  /** No TXT record starting with "v=spf1": check_host() returns none. */
  | { readonly kind: 'none'; readonly domain: string; readonly detail: string }
  /** More than one: permerror (4.5). */
  | { readonly kind: 'multiple'; readonly domain: string; readonly texts: readonly string[] }
  /** The TXT lookup failed (timeout, SERVFAIL...): temperror (4.4). */
  | { readonly kind: 'error'; readonly domain: string; readonly detail: string };

/** Chooses the SPF record among a domain's TXT records; the strings of one record are joined without separator (3.3). */
export function selectSpfRecord(domain: string, answer: DnsAnswer<'TXT'>): SpfRecordLookup {
  if (!answer.ok) {
    if (answer.failure === 'nxdomain') return { kind: 'none', domain, detail: `${domain} does not exist` };
    if (answer.failure === 'nodata') return { kind: 'none', domain, detail: `${domain} has no TXT records` };
    return { kind: 'error', domain, detail: lookupFailureText(answer) };
  }
  const texts = answer.records.map((r) => r.data.join('')).filter(isSpfRecordText);
  const [first] = texts;
  if (first === undefined) return { kind: 'none', domain, detail: `${domain} has TXT records but none starts with "v=spf1"` };
  if (texts.length > 1) return { kind: 'multiple', domain, texts };
  return { kind: 'found', domain, record: parseSpfRecordCached(first) };
}

/** Memoises record lookups per check: evaluation, look-ahead and the tree all share one answer per domain. */
export function createSpfRecordLookup(dns: DnsLookup): (domain: string) => Promise<SpfRecordLookup> {
  const cache = new Map<string, Promise<SpfRecordLookup>>();
  return (domain) => {
    const key = domain.toLowerCase();
    let pending = cache.get(key);
    if (!pending) {
      pending = dns.lookup(key, 'TXT').then((answer) => selectSpfRecord(key, answer));
      cache.set(key, pending);
    }
    return pending;
  };
}
