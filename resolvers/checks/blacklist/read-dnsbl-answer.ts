import type { DnsAnswer } from '../../../clients/dns/dns-types.js';
import type { DnsblList } from './dnsbl-lists.js';

export interface DnsblCode {
  readonly code: string;
  readonly meaning: string;
}

/** What one list said about one name: listed, not listed, or no usable answer (listed null, with the reason). */
export interface DnsblVerdict {
  readonly listed: boolean | null;
  readonly codes: readonly DnsblCode[];
  readonly reason: string | null;
}

function lastOctet(address: string): number {
  return Number(address.split('.')[3] ?? 0);
}

/** The meanings of one listing address: by exact code, else by bits, else "not documented". */
function meaningsOf(list: DnsblList, address: string): DnsblCode[] {
  const exact = list.codes?.[address];
  if (exact) return [{ code: address, meaning: exact }];
  if (list.bits) {
    const octet = lastOctet(address);
    const set = Object.entries(list.bits).filter(([bit]) => (octet & Number(bit)) !== 0);
    if (set.length > 0) return set.map(([, meaning]) => ({ code: address, meaning }));
  }
  return [{ code: address, meaning: `Return code not documented by ${list.name}; treated as a listing` }];
}

/** A reason when this answer address is the list refusing or failing, never a listing. */
function refusalOf(list: DnsblList, address: string): string | null {
  const known = list.refusals?.[address];
  if (known) return known;
  if (list.refusal_bits && address.startsWith('127.')) {
    const octet = lastOctet(address);
    const hit = Object.entries(list.refusal_bits).find(([bit]) => (octet & Number(bit)) !== 0);
    if (hit) return hit[1];
  }
  // Spamhaus and others use 127.255.255.0/24 for errors; no list lists in it.
  if (address.startsWith('127.255.255.')) return `${list.name} answered ${address}, an error code, not a listing`;
  // RFC 5782 section 5: an IPv4 DNSxL must not list 127.0.0.1, so an answer of it is the list talking to us.
  if (address === '127.0.0.1') return `${list.name} answered 127.0.0.1, which a blocklist never uses for a listing (RFC 5782 section 5): the query was refused`;
  // RFC 5782 section 2.3: listing answers are in 127/8. Anything else is a wildcarded or hijacked
  // zone (a dead list's domain bought by a parking service answers every name).
  if (!address.startsWith('127.')) return `${list.name} answered ${address}, outside 127.0.0.0/8: the zone looks wildcarded or no longer run as a blocklist`;
  return null;
}

/**
 * Reads a blocklist's A answer (RFC 5782 section 2.1). NXDOMAIN (and no data) is "not listed"; a
 * timeout, SERVFAIL, REFUSED or malformed reply is "no usable answer", never a listing; a refusal
 * code anywhere in the answer makes the whole answer unusable.
 */
export function readDnsblAnswer(list: DnsblList, answer: DnsAnswer<'A'>): DnsblVerdict {
  if (!answer.ok) {
    if (answer.failure === 'nxdomain' || answer.failure === 'nodata') return { listed: false, codes: [], reason: null };
    return { listed: null, codes: [], reason: `The lookup failed (${answer.failure}): ${answer.detail}` };
  }
  const addresses = [...new Set(answer.records.map((r) => r.data))].sort();
  if (addresses.length === 0) return { listed: false, codes: [], reason: null };
  for (const address of addresses) {
    const refusal = refusalOf(list, address);
    if (refusal) return { listed: null, codes: [{ code: address, meaning: refusal }], reason: refusal };
  }
  return { listed: true, codes: addresses.flatMap((a) => meaningsOf(list, a)), reason: null };
}
