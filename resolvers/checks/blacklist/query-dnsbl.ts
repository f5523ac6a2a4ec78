import { createHash } from 'node:crypto';
import type { DnsLookup } from '../../../clients/dns/dns-types.js';
import type { BlacklistConfig } from '../../../config/settings.js';
import type { DnsblList } from './dnsbl-lists.js';
import type { DnsblLivenessBoard } from './dnsbl-liveness-board.js';
import { readDnsblAnswer } from './read-dnsbl-answer.js';
import type { DnsblCode } from './read-dnsbl-answer.js';

/** One list's answer about one target, as it goes on the wire. */
export interface DnsblListResult {
  readonly list: string;
  readonly listId: string;
  /** The zone asked (a DQS zone is shown without the key). */
  readonly zone: string;
  /** The IPv4 address or domain asked about. */
  readonly target: string;
  readonly kind: 'ip' | 'domain';
  readonly listed: boolean | null;
  readonly codes: readonly DnsblCode[];
  readonly removalUrl: string;
  readonly reason: string | null;
  /**
   * Whether the list passed its RFC 5782 test points (IP lists: 127.0.0.2 listed and 127.0.0.1 not;
   * domain lists: "test" listed and "invalid" not), in the background probe shared by every request
   * when it is fresh, else in this request. false: it failed them, so it is `listed: null` (a zone
   * that no longer exists would otherwise read as "not listed"); null: a test-point lookup failed,
   * so its answer is not trusted either.
   */
  readonly alive: boolean | null;
}

/** What asking a list needs: the request's DNS, the operator's settings and the shared probe, if any. */
export interface DnsblContext {
  readonly dns: DnsLookup;
  readonly blacklist: BlacklistConfig;
  /** The background probe's findings (absent: every request asks the test points itself). */
  readonly dnsblLiveness?: DnsblLivenessBoard;
}

/** The zone to ask and the zone to show: Spamhaus moves to DQS when a key is configured. */
export function zoneFor(list: DnsblList, config: BlacklistConfig): { query: string; shown: string } {
  if (list.dqs_zone && config.spamhausDqsKey) {
    const shown = `${list.dqs_zone}.dq.spamhaus.net`;
    return { query: `${config.spamhausDqsKey}.${shown}`, shown: `${shown} (DQS)` };
  }
  return { query: list.zone, shown: list.zone };
}

const digests = new Map<string, string>();

/** Names the zone asked, DQS key included, without storing the key: the first 16 hex digits of its SHA-256. */
export function zoneDigest(queryZone: string): string {
  let digest = digests.get(queryZone);
  if (digest === undefined) {
    digest = createHash('sha256').update(queryZone).digest('hex').slice(0, 16);
    digests.set(queryZone, digest);
  }
  return digest;
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

/** Per request (its DNS lookup), each list's liveness once, however many targets ask for it. */
const sharedPerRequest = new WeakMap<DnsLookup, Map<string, Promise<DnsblLiveness | null>>>();

/**
 * The background probe's word on the list when it is fresh and conclusive, with the time it was
 * found; null when the request must ask the test points itself (no probe, a stale one, or one whose
 * test points gave no usable answer).
 */
export function sharedLiveness(ctx: DnsblContext, list: DnsblList): Promise<DnsblLiveness | null> {
  const board = ctx.dnsblLiveness;
  if (!board) return Promise.resolve(null);
  let lists = sharedPerRequest.get(ctx.dns);
  if (!lists) {
    lists = new Map();
    sharedPerRequest.set(ctx.dns, lists);
  }
  let found = lists.get(list.id);
  if (!found) {
    found = board.find(list.id, zoneDigest(zoneFor(list, ctx.blacklist).query)).then((probe) =>
      probe === null
        ? null
        : {
            alive: probe.alive,
            reason: probe.alive
              ? null
              : `${probe.reason ?? `${list.name} failed its RFC 5782 test points.`} (background probe of ${probe.probed_at.toISOString()})`,
          },
    );
    lists.set(list.id, found);
  }
  return found;
}

/** The list's liveness: the shared probe's when fresh, else its test points asked in this request. */
export async function listLiveness(ctx: DnsblContext, list: DnsblList): Promise<DnsblLiveness> {
  return (await sharedLiveness(ctx, list)) ?? dnsblLiveness(ctx.dns, list, ctx.blacklist);
}

export async function queryDnsbl(ctx: DnsblContext, list: DnsblList, target: string): Promise<DnsblListResult> {
  const config = ctx.blacklist;
  const zone = zoneFor(list, config);
  const name = `${list.kind === 'ip' ? reverseIpv4(target) : target}.${zone.query}`;
  const shared = await sharedLiveness(ctx, list);
  // A list the fresh probe found dead is not asked: its answer would not be counted.
  const answer = shared?.alive === false ? null : ctx.dns.lookup(name, 'A');
  // Without a fresh probe the test points go out in the same round trip as the target's question.
  const liveness = shared ?? (await dnsblLiveness(ctx.dns, list, config));
  const verdict = answer === null ? null : readDnsblAnswer(list, await answer);
  const usable = verdict !== null && (verdict.listed === null || liveness.alive === true);
  const reason = usable ? verdict.reason : liveness.reason;
  return {
    list: list.name,
    listId: list.id,
    zone: zone.shown,
    target,
    kind: list.kind,
    listed: usable ? verdict.listed : null,
    codes: usable ? verdict.codes : [],
    removalUrl: list.removalUrl,
    // A failed lookup's detail names the queried zone; the DQS key is a secret and never goes out.
    reason: reason && config.spamhausDqsKey ? reason.replaceAll(config.spamhausDqsKey, '<key>') : reason,
    alive: liveness.alive,
  };
}
