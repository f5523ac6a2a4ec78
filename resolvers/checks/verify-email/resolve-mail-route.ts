import type { DnsLookup, MxRecord } from '../../../clients/dns/dns-types.js';

/**
 * Where mail for a domain goes, from DNS alone:
 * - mx: MX records, lowest preference first (with_null_mx: a null MX was published beside them,
 *   which RFC 7505 section 3 forbids);
 * - null_mx: the single "0 ." record of RFC 7505, the domain takes no mail;
 * - implicit_mx: no MX but an A or AAAA record, which RFC 5321 section 5.1 says to deliver to;
 * - no_route: the name exists but has neither;
 * - not_found: NXDOMAIN;
 * - failed: a lookup timed out or failed, so we cannot tell (never reported as "no mail").
 */
export type MailRoute =
  | { readonly kind: 'mx'; readonly mx: readonly MxRecord[]; readonly with_null_mx: boolean }
  | { readonly kind: 'null_mx' }
  | { readonly kind: 'implicit_mx'; readonly addresses: readonly string[] }
  | { readonly kind: 'no_route' }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'failed'; readonly detail: string };

export function isNullExchange(exchange: string): boolean {
  return exchange === '' || exchange === '.';
}

export async function resolveMailRoute(dns: DnsLookup, domain: string): Promise<MailRoute> {
  const mx = await dns.lookup(domain, 'MX');
  if (mx.ok) {
    const records = mx.records.map((r) => r.data);
    const real = records.filter((r) => !isNullExchange(r.exchange));
    // RFC 7505 section 3: a null MX is the only MX of its domain. A null record beside real ones is
    // a mistake we do not let hide the real hosts.
    if (real.length === 0) return { kind: 'null_mx' };
    const sorted = [...real].sort((a, b) => a.preference - b.preference || a.exchange.localeCompare(b.exchange));
    return { kind: 'mx', mx: sorted, with_null_mx: real.length < records.length };
  }
  if (mx.failure === 'nxdomain') return { kind: 'not_found' };
  if (mx.failure !== 'nodata') return { kind: 'failed', detail: `MX ${domain}: ${mx.failure} (${mx.detail})` };

  // RFC 5321 section 5.1: with no MX, the domain itself is the mail host (implicit MX).
  const [a, aaaa] = await Promise.all([dns.lookup(domain, 'A'), dns.lookup(domain, 'AAAA')]);
  const addresses = [...(a.ok ? a.records.map((r) => r.data) : []), ...(aaaa.ok ? aaaa.records.map((r) => r.data) : [])];
  if (addresses.length > 0) return { kind: 'implicit_mx', addresses };
  const failed = [a, aaaa].find((answer) => !answer.ok && answer.failure !== 'nxdomain' && answer.failure !== 'nodata');
  if (failed && !failed.ok) return { kind: 'failed', detail: `${failed.type} ${domain}: ${failed.failure} (${failed.detail})` };
  return { kind: 'no_route' };
}
