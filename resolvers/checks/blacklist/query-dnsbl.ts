import type { DnsLookup } from '../dns/dns-types.js';
import type { BlacklistConfig } from './blacklist-config.js';
import type { DnsblList } from './dnsbl-lists.js';
import { readDnsblAnswer } from './read-dnsbl-answer.js';
import type { DnsblCode } from './read-dnsbl-answer.js';

/** One list's answer about one target, as it goes on the wire. */
export interface DnsblListResult {
  readonly list: string;
  readonly list_id: string;
  /** The zone asked (a DQS zone is shown without the key). */
  readonly zone: string;
  /** The IPv4 address or domain asked about. */
  readonly target: string;
  readonly kind: 'ip' | 'domain';
  readonly listed: boolean | null;
  readonly codes: readonly DnsblCode[];
  readonly removal_url: string;
  readonly reason: string | null;
}

/** The zone to ask and the zone to show: Spamhaus moves to DQS when a key is configured. */
export function zoneFor(list: DnsblList, config: BlacklistConfig): { query: string; shown: string } {
  if (list.dqs_zone && config.spamhausDqsKey) {
    const shown = `${list.dqs_zone}.dq.spamhaus.net`;
    return { query: `${config.spamhausDqsKey}.${shown}`, shown: `${shown} (DQS)` };
  }
  return { query: list.zone, shown: list.zone };
}

/** RFC 5782 section 2.1: an IPv4 address is asked with its octets reversed. */
export function reverseIpv4(address: string): string {
  return address.split('.').reverse().join('.');
}

export async function queryDnsbl(dns: DnsLookup, list: DnsblList, target: string, config: BlacklistConfig): Promise<DnsblListResult> {
  const zone = zoneFor(list, config);
  const name = `${list.kind === 'ip' ? reverseIpv4(target) : target}.${zone.query}`;
  const verdict = readDnsblAnswer(list, await dns.lookup(name, 'A'));
  return {
    list: list.name, list_id: list.id, zone: zone.shown, target, kind: list.kind,
    listed: verdict.listed, codes: verdict.codes, removal_url: list.removal_url,
    // A failed lookup's detail names the queried zone; the DQS key is a secret and never goes out.
    reason: verdict.reason && config.spamhausDqsKey ? verdict.reason.replaceAll(config.spamhausDqsKey, '<key>') : verdict.reason,
  };
}
