import type { DirectReply, DnsAnswer, DnsFailureKind, DnsLookup, DnsRecordType } from './dns-types.js';
import { normaliseQuestionName } from './create-dns-lookup.js';

/** Where a zone is served: its apex and the addresses of the servers it is delegated to. */
export interface ZoneServers {
  readonly zone: string;
  readonly nameservers: readonly string[];
  readonly addresses: readonly string[];
}

/** Addresses asked per zone: a handful is enough to reach a working server and bounds the cost. */
const MAX_ADDRESSES = 4;

export function withinZone(name: string, zone: string): boolean {
  const bare = normaliseQuestionName(name);
  return bare === zone || bare.endsWith(`.${zone}`);
}

/**
 * The zone that holds `domain` and the addresses of its name servers, from the delegation: the NS
 * set of the domain (or of the closest enclosing name that has one, for a name inside a larger
 * zone) and each server's address. NS sets and server addresses change rarely, so the resolver's
 * copies serve; the records themselves are then asked of the servers (createZoneLookup). A reason
 * instead when no server can be found.
 */
export async function findZoneServers(dns: DnsLookup, domain: string): Promise<ZoneServers | { readonly reason: string }> {
  if (!dns.askServer) return { reason: 'this lookup cannot ask name servers directly' };
  const labels = normaliseQuestionName(domain).split('.');
  for (let i = 0; i < labels.length - 1; i += 1) {
    const zone = labels.slice(i).join('.');
    const ns = await dns.lookup(zone, 'NS');
    if (!ns.ok && ns.failure === 'nodata') continue;
    if (!ns.ok) return { reason: `the NS lookup of ${zone} failed (${ns.detail})` };
    const nameservers = [...new Set(ns.records.map((r) => r.data))].sort();
    const found = await Promise.all(
      nameservers.map(async (host) => {
        const a = await dns.lookup(host, 'A');
        if (a.ok) return a.records.map((r) => r.data);
        const aaaa = await dns.lookup(host, 'AAAA');
        return aaaa.ok ? aaaa.records.map((r) => r.data) : [];
      }),
    );
    const addresses = [...new Set(found.flat())].slice(0, MAX_ADDRESSES);
    if (addresses.length === 0) return { reason: `no name server of ${zone} (${nameservers.join(', ')}) has an address` };
    return { zone, nameservers, addresses };
  }
  return { reason: `no NS records were found for ${domain} or the names above it` };
}

/**
 * A lookup that reads the names of one zone from the zone's own servers (RD clear, AA required), so
 * an answer is what the zone holds now rather than what a cache kept, and every other name (an SPF
 * include, an MX host) through `base`, the request's resolver. The servers are asked in turn until
 * one answers with authority; when none does the answer is a failure naming each (never "missing").
 * A CNAME out of the zone is followed through `base`. Questions share `base`'s budget and signal.
 */
export function createZoneLookup(base: DnsLookup, servers: ZoneServers): DnsLookup {
  const askServer = base.askServer?.bind(base);

  async function fromZone<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>> {
    const problems: string[] = [];
    let refusals = 0;
    for (const address of servers.addresses) {
      if (!askServer) break;
      const reply: DirectReply<T> = await askServer(address, name, type);
      if (reply.ok && reply.authoritative) {
        const answer = reply.answer;
        if (!answer.ok && answer.failure === 'nodata' && answer.canonical && !withinZone(answer.canonical, servers.zone)) {
          const target = await base.lookup(answer.canonical, type);
          return { ...target, name, canonical: answer.canonical };
        }
        return answer;
      }
      if (reply.ok) {
        if (reply.rcode === 'REFUSED') refusals += 1;
        problems.push(`${address} answered ${reply.rcode} without authority`);
      } else {
        if (reply.failure === 'budget' || reply.failure === 'cancelled') return { ok: false, name, type, failure: reply.failure, detail: reply.detail };
        problems.push(`${address}: ${reply.detail}`);
      }
    }
    // Every server refusing is an answer (they do not serve the zone), not an outage.
    const kind: DnsFailureKind = refusals > 0 && refusals === servers.addresses.length ? 'refused' : 'timeout';
    return {
      ok: false,
      name,
      type,
      failure: kind,
      detail: `no name server of ${servers.zone} answered ${type} ${name} with authority (${problems.join('; ') || 'none could be asked'})`,
    };
  }

  return {
    // No cache of its own: base.askServer asks each (server, name, type) once per request.
    lookup<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>> {
      return withinZone(name, servers.zone) ? fromZone(normaliseQuestionName(name), type) : base.lookup(name, type);
    },
    // Direct questions go through base.askServer, so base counts them.
    get questionsAsked() {
      return base.questionsAsked;
    },
    ...(askServer && { askServer }),
    ...(base.budget && { budget: base.budget }),
    ...(base.signal && { signal: base.signal }),
  };
}

/**
 * The lookup to read `domain`'s own names with: its zone's servers when they can be found, else
 * `base` (the resolver), with where the answer comes from in words.
 */
export async function readZoneOf(base: DnsLookup, domain: string): Promise<{ readonly dns: DnsLookup; readonly readFrom: string; readonly zone: string }> {
  const servers = await findZoneServers(base, domain);
  if ('reason' in servers) return { dns: base, readFrom: `the resolver (the zone's own servers could not be asked: ${servers.reason})`, zone: domain };
  return { dns: createZoneLookup(base, servers), readFrom: `the name servers of ${servers.zone} (${servers.nameservers.join(', ')})`, zone: servers.zone };
}
