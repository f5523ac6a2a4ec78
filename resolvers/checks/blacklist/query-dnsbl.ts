import type { DnsLookup } from '../dns/dns-types.js';
import type { BlacklistConfig } from '../../../config/settings.js';
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
  /**
   * Whether the list passed its RFC 5782 test points in this request (IP lists: 127.0.0.2 listed and
   * 127.0.0.1 not; domain lists: "test" listed and "invalid" not). false: it failed them, so it is
   * `listed: null` (a zone that no longer exists would otherwise read as "not listed"); null: a
   * test-point lookup failed, so its answer is not trusted either.
   */
  readonly alive: boolean | null;
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

/** Whether a list is alive, and if not, why (a sentence). */
export interface DnsblLiveness {
  readonly alive: boolean | null;
  readonly reason: string | null;
}

/**
 * Asks the list's two RFC 5782 section 5 test points at once: the one it must list (127.0.0.2, or
 * "test" for a domain list) and the one it must not (127.0.0.1, or "invalid"). The request's DNS
 * loader asks each once, however many targets the request checks on the list.
 */
export async function dnsblLiveness(dns: DnsLookup, list: DnsblList, config: BlacklistConfig): Promise<DnsblLiveness> {
  const zone = zoneFor(list, config).query;
  const [listedPoint, unlistedPoint] = list.kind === 'ip' ? ['127.0.0.2', '127.0.0.1'] : [list.test_domain ?? 'test', 'invalid'];
  const nameOf = (point: string): string => `${list.kind === 'ip' ? reverseIpv4(point) : point}.${zone}`;
  const [must, mustNot] = await Promise.all([dns.lookup(nameOf(listedPoint), 'A'), dns.lookup(nameOf(unlistedPoint), 'A')]);
  const positive = readDnsblAnswer(list, must);
  const negative = readDnsblAnswer(list, mustNot);
  if (positive.listed === false) {
    return {
      alive: false,
      reason: `${list.name} does not list its RFC 5782 test point ${listedPoint} (${nameOf(listedPoint)}): the zone no longer runs as a blocklist or does not answer this resolver, so its "not listed" would mean nothing.`,
    };
  }
  if (negative.listed === true) {
    return {
      alive: false,
      reason: `${list.name} lists ${unlistedPoint}, which RFC 5782 section 5 says no list may list: the zone answers every name (wildcarded or parked), so its listings would mean nothing.`,
    };
  }
  if (positive.listed === null)
    return {
      alive: null,
      reason: `Could not check that ${list.name} is alive: its test point ${listedPoint} gave no usable answer (${positive.reason ?? 'no reason given'}).`,
    };
  if (negative.listed === null)
    return {
      alive: null,
      reason: `Could not check that ${list.name} is alive: its test point ${unlistedPoint} gave no usable answer (${negative.reason ?? 'no reason given'}).`,
    };
  return { alive: true, reason: null };
}

export async function queryDnsbl(dns: DnsLookup, list: DnsblList, target: string, config: BlacklistConfig): Promise<DnsblListResult> {
  const zone = zoneFor(list, config);
  const name = `${list.kind === 'ip' ? reverseIpv4(target) : target}.${zone.query}`;
  // The test points go out in the same round trip as the target's question.
  const [answer, liveness] = await Promise.all([dns.lookup(name, 'A'), dnsblLiveness(dns, list, config)]);
  const verdict = readDnsblAnswer(list, answer);
  const usable = verdict.listed === null || liveness.alive === true;
  const reason = usable ? verdict.reason : liveness.reason;
  return {
    list: list.name,
    list_id: list.id,
    zone: zone.shown,
    target,
    kind: list.kind,
    listed: usable ? verdict.listed : null,
    codes: usable ? verdict.codes : [],
    removal_url: list.removal_url,
    // A failed lookup's detail names the queried zone; the DQS key is a secret and never goes out.
    reason: reason && config.spamhausDqsKey ? reason.replaceAll(config.spamhausDqsKey, '<key>') : reason,
    alive: liveness.alive,
  };
}
