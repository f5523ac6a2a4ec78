import type { DirectReply, DnsLookup } from '../../../clients/dns/dns-types.js';

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
  readonly parentZone: string;
  /** NS names the parent's servers delegate to; null when the parent could not be asked. */
  readonly parentNameservers: readonly string[] | null;
  readonly parentReason: string | null;
  readonly childNameservers: readonly string[];
  readonly onlyAtParent: readonly string[];
  readonly onlyAtChild: readonly string[];
  readonly servers: readonly NameserverHealth[];
  /** True when every authoritative server gave the same SOA serial; null when none answered. */
  readonly serialsAgree: boolean | null;
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

/**
 * Asks a server's first two addresses at once (each direct question has its own short timeout) and
 * keeps the first address's reply unless only the second one answered.
 */
async function askFirst<T extends 'NS' | 'SOA'>(dns: DnsLookup, addresses: readonly string[], zone: string, type: T): Promise<DirectReply<T> | null> {
  const replies = await Promise.all(addresses.slice(0, 2).map((address) => dns.askServer!(address, zone, type)));
  return replies.find((r) => r.ok) ?? replies[0] ?? null;
}

/** The parent's side of a delegation: the NS names its servers refer to, and the glue they give. */
export interface ParentView {
  readonly nameservers: string[] | null;
  readonly reason: string | null;
  readonly glue: Readonly<Record<string, readonly string[]>>;
}

type ParentAnswer = { readonly view: ParentView } | { readonly reason: string; readonly final: boolean };

async function askParentServer(dns: DnsLookup, zone: string, parent: string, server: string): Promise<ParentAnswer> {
  const { addresses, failed } = await addressesOf(dns, server);
  if (addresses.length === 0) return { reason: `${server} (a server of ${parent}) has no address${failed ? `: ${failed}` : ''}`, final: false };
  const reply = await askFirst(dns, addresses, zone, 'NS');
  if (!reply) return { reason: `${server} was not asked`, final: false };
  if (!reply.ok)
    return {
      reason: `${server} did not answer NS ${zone} (${reply.failure}): ${reply.detail}`,
      final: reply.failure === 'budget' || reply.failure === 'cancelled',
    };
  // A parent answers with a referral; a server that serves parent and child alike answers outright.
  if (reply.referral.length > 0) return { view: { nameservers: [...new Set(reply.referral)].sort(), reason: null, glue: reply.glue } };
  if (reply.answer.ok) return { view: { nameservers: [...new Set(reply.answer.records.map((r) => r.data))].sort(), reason: null, glue: {} } };
  if (reply.answer.failure === 'nxdomain')
    return { view: { nameservers: [], reason: `${server} (a server of ${parent}) says ${zone} does not exist: the domain is not delegated`, glue: {} } };
  return { reason: `${server} answered NS ${zone} with neither a referral nor NS records (${reply.rcode})`, final: false };
}

/**
 * Asks up to three of the parent zone's servers for the delegation at once; the first in name order
 * that gives one wins, so the answer does not depend on which server was quickest.
 */
export async function parentView(dns: DnsLookup, zone: string): Promise<ParentView> {
  const dot = zone.indexOf('.');
  if (!dns.askServer || dot < 0) return { nameservers: null, reason: 'the parent zone was not asked', glue: {} };
  const parent = zone.slice(dot + 1);
  const ns = await dns.lookup(parent, 'NS');
  if (!ns.ok) return { nameservers: null, reason: `the parent zone's name servers could not be found (${ns.failure}): ${ns.detail}`, glue: {} };
  const servers = [...new Set(ns.records.map((r) => r.data))].sort().slice(0, MAX_PARENT_SERVERS);
  const answers = await Promise.all(servers.map((server) => askParentServer(dns, zone, parent, server)));
  for (const answer of answers) if ('view' in answer) return answer.view;
  const reasons = answers.map((a) => ('reason' in a ? a.reason : ''));
  return { nameservers: null, reason: reasons.find((r) => r !== '') ?? `none of ${parent}'s servers answered NS ${zone}`, glue: {} };
}

/**
 * `glue`: the parent's addresses for this server, if any. With `glueFirst` (the zone's own NS lookup
 * failed) they are used before asking the resolver, which would need the broken zone to answer;
 * otherwise only when the resolver gives no address.
 */
async function serverHealth(
  dns: DnsLookup,
  zone: string,
  nameserver: string,
  glue: Promise<readonly string[] | undefined>,
  glueFirst: boolean,
): Promise<NameserverHealth> {
  const fromGlue = async (): Promise<{ addresses: string[]; failed: string | null } | null> => {
    const found = await glue;
    return found && found.length > 0 ? { addresses: [...found], failed: null } : null;
  };
  let found: { addresses: string[]; failed: string | null } | null = glueFirst ? await fromGlue() : null;
  if (!found) {
    const looked = await addressesOf(dns, nameserver);
    found = looked.addresses.length === 0 && !glueFirst ? ((await fromGlue()) ?? looked) : looked;
  }
  const { addresses, failed } = found;
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

/**
 * `childNameservers`: the zone's own NS set as the resolver gave it, or null when that lookup failed
 * (a lame or broken zone): then the servers the parent delegates to are the ones asked. `parent`: the
 * parent's view when the caller started it already (beside the NS lookup, to save the round trips).
 */
export async function checkDelegationHealth(
  dns: DnsLookup,
  zone: string,
  childNameservers: readonly string[] | null,
  parent?: Promise<ParentView>,
): Promise<DelegationHealth | null> {
  const dot = zone.indexOf('.');
  if (!dns.askServer || dot < 0) return null; // a TLD's parent is the root: not this check's business
  const parentZone = zone.slice(dot + 1);
  const fromParentPromise = parent ?? parentView(dns, zone);
  // The child's servers are asked beside the parent when the child's set is known; without it, the parent's set is needed first.
  const glueOf = (ns: string) => fromParentPromise.then((p) => p.glue[ns]);
  const childServers = childNameservers
    ? Promise.all(childNameservers.slice(0, MAX_SERVERS).map((ns) => serverHealth(dns, zone, ns, glueOf(ns), false)))
    : null;
  const fromParent = await fromParentPromise;
  const servers = childServers
    ? await childServers
    : await Promise.all((fromParent.nameservers ?? []).slice(0, MAX_SERVERS).map((ns) => serverHealth(dns, zone, ns, glueOf(ns), true)));
  const parentSet = new Set(fromParent.nameservers ?? []);
  const childSet = new Set(childNameservers ?? []);
  const compared = fromParent.nameservers !== null && childNameservers !== null;
  const serials = [...new Set(servers.flatMap((s) => (s.serial === null ? [] : [s.serial])))];
  return {
    parentZone,
    parentNameservers: fromParent.nameservers,
    parentReason: fromParent.reason,
    childNameservers: childNameservers ?? [],
    onlyAtParent: compared ? [...parentSet].filter((n) => !childSet.has(n)).sort() : [],
    onlyAtChild: compared ? [...childSet].filter((n) => !parentSet.has(n)).sort() : [],
    servers,
    serialsAgree: serials.length === 0 ? null : serials.length === 1,
  };
}
