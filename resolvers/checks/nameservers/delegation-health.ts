import type { DirectReply, DnsLookup } from '../dns/dns-types.js';

/**
 * Delegation health of one zone (single-domain calls only): the parent's NS set beside the zone's
 * own, and each of the zone's servers asked for its SOA directly, without recursion. A server that
 * answers without AA (or refers, or refuses) is lame (RFC 1912 2.8); serials that differ mean a
 * secondary has not picked up the latest zone.
 */
export type NameserverStatus = 'authoritative' | 'lame' | 'unreachable' | 'no_address';

export interface NameserverHealth {
  readonly nameserver: string;
  readonly addresses: readonly string[];
  readonly status: NameserverStatus;
  /** SOA serial the server gave, when it answered authoritatively. */
  readonly serial: number | null;
  readonly reason: string | null;
}

export interface DelegationHealth {
  readonly parent_zone: string;
  /** NS names the parent's servers delegate to; null when the parent could not be asked. */
  readonly parent_nameservers: readonly string[] | null;
  readonly parent_reason: string | null;
  readonly child_nameservers: readonly string[];
  readonly only_at_parent: readonly string[];
  readonly only_at_child: readonly string[];
  readonly servers: readonly NameserverHealth[];
  /** True when every authoritative server gave the same SOA serial; null when none answered. */
  readonly serials_agree: boolean | null;
}

/** Servers asked per zone: bounds the questions a domain with dozens of NS records can cost. */
const MAX_SERVERS = 8;
const MAX_PARENT_SERVERS = 3;

async function addressesOf(dns: DnsLookup, host: string): Promise<{ addresses: string[]; failed: string | null }> {
  const a = await dns.lookup(host, 'A');
  if (a.ok) return { addresses: a.records.map((r) => r.data), failed: null };
  const aaaa = await dns.lookup(host, 'AAAA');
  if (aaaa.ok) return { addresses: aaaa.records.map((r) => r.data), failed: null };
  const failure = [a, aaaa].find((x) => !x.ok && x.failure !== 'nxdomain' && x.failure !== 'nodata');
  return { addresses: [], failed: failure && !failure.ok ? failure.detail : null };
}

/** Asks each address in turn until one answers (a timeout moves on; an answer of any kind stops). */
async function askFirst<T extends 'NS' | 'SOA'>(dns: DnsLookup, addresses: readonly string[], zone: string, type: T): Promise<DirectReply<T> | null> {
  let last: DirectReply<T> | null = null;
  for (const address of addresses.slice(0, 2)) {
    last = await dns.askServer!(address, zone, type);
    if (last.ok || last.failure === 'budget' || last.failure === 'cancelled') return last;
  }
  return last;
}

async function parentNameservers(dns: DnsLookup, zone: string, parent: string): Promise<{ nameservers: string[] | null; reason: string | null }> {
  const ns = await dns.lookup(parent, 'NS');
  if (!ns.ok) return { nameservers: null, reason: `the parent zone's name servers could not be found (${ns.failure}): ${ns.detail}` };
  const servers = [...new Set(ns.records.map((r) => r.data))].sort().slice(0, MAX_PARENT_SERVERS);
  let reason = `none of ${parent}'s servers answered NS ${zone}`;
  for (const server of servers) {
    const { addresses } = await addressesOf(dns, server);
    if (addresses.length === 0) continue;
    const reply = await askFirst(dns, addresses, zone, 'NS');
    if (!reply) continue;
    if (!reply.ok) {
      reason = `${server} did not answer NS ${zone} (${reply.failure}): ${reply.detail}`;
      if (reply.failure === 'budget' || reply.failure === 'cancelled') break;
      continue;
    }
    // A parent answers with a referral; a server that serves parent and child alike answers outright.
    if (reply.referral.length > 0) return { nameservers: [...new Set(reply.referral)].sort(), reason: null };
    if (reply.answer.ok) return { nameservers: [...new Set(reply.answer.records.map((r) => r.data))].sort(), reason: null };
    if (reply.answer.failure === 'nxdomain')
      return { nameservers: [], reason: `${server} (a server of ${parent}) says ${zone} does not exist: the domain is not delegated` };
    reason = `${server} answered NS ${zone} with neither a referral nor NS records (${reply.rcode})`;
  }
  return { nameservers: null, reason };
}

async function serverHealth(dns: DnsLookup, zone: string, nameserver: string): Promise<NameserverHealth> {
  const { addresses, failed } = await addressesOf(dns, nameserver);
  const base = { nameserver, addresses };
  if (addresses.length === 0) {
    return {
      ...base,
      status: failed ? 'unreachable' : 'no_address',
      serial: null,
      reason: failed ? `its address could not be looked up: ${failed}` : `${nameserver} has no A or AAAA record, so nobody can ask it`,
    };
  }
  const reply = await askFirst(dns, addresses, zone, 'SOA');
  if (!reply || !reply.ok)
    return {
      ...base,
      status: 'unreachable',
      serial: null,
      reason: reply && !reply.ok ? `it did not answer SOA ${zone} (${reply.failure}): ${reply.detail}` : 'it was not asked',
    };
  const soa = reply.answer.ok ? reply.answer.records[0]?.data : undefined;
  if (reply.authoritative && soa) return { ...base, status: 'authoritative', serial: soa.serial, reason: null };
  const why =
    reply.rcode === 'REFUSED'
      ? 'it refused the question'
      : reply.referral.length > 0
        ? `it referred the question to ${reply.referral.slice(0, 3).join(', ')}`
        : !reply.authoritative
          ? 'it answered without the AA flag'
          : `it answered ${reply.rcode} without the zone's SOA`;
  return { ...base, status: 'lame', serial: null, reason: `${why}: it does not serve ${zone}` };
}

export async function checkDelegationHealth(dns: DnsLookup, zone: string, childNameservers: readonly string[]): Promise<DelegationHealth | null> {
  const dot = zone.indexOf('.');
  if (!dns.askServer || dot < 0) return null; // a TLD's parent is the root: not this check's business
  const parent = zone.slice(dot + 1);
  const [fromParent, servers] = await Promise.all([
    parentNameservers(dns, zone, parent),
    Promise.all(childNameservers.slice(0, MAX_SERVERS).map((ns) => serverHealth(dns, zone, ns))),
  ]);
  const parentSet = new Set(fromParent.nameservers ?? []);
  const childSet = new Set(childNameservers);
  const serials = [...new Set(servers.flatMap((s) => (s.serial === null ? [] : [s.serial])))];
  return {
    parent_zone: parent,
    parent_nameservers: fromParent.nameservers,
    parent_reason: fromParent.reason,
    child_nameservers: childNameservers,
    only_at_parent: fromParent.nameservers ? [...parentSet].filter((n) => !childSet.has(n)).sort() : [],
    only_at_child: fromParent.nameservers ? [...childSet].filter((n) => !parentSet.has(n)).sort() : [],
    servers,
    serials_agree: serials.length === 0 ? null : serials.length === 1,
  };
}
