import type { Answer, DecodedPacket } from 'dns-packet';
import type { DnsAnswer, DnsRecord, DnsRecordData, DnsRecordType } from './dns-types.js';

/** A CNAME chain longer than this inside one answer is treated as a loop. */
const MAX_CNAME_HOPS = 16;

function bareName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/**
 * Turns a decoded reply into the engine's answer. The recursive resolver has already chased CNAMEs
 * and put the chain in the answer section (RFC 1034 4.3.2), so we walk it from the asked name to the
 * records of the asked type. CNAME records themselves are only returned when CNAME was asked:
 * a check asking for TXT wants text, not the aliases on the way.
 */
export function answerFromReply<T extends DnsRecordType>(name: string, type: T, packet: DecodedPacket): DnsAnswer<T> {
  const rcode = (packet as DecodedPacket & { rcode?: string }).rcode ?? 'NOERROR';
  if (rcode === 'NXDOMAIN') {
    // RFC 6604: with a CNAME chain in the answer, NXDOMAIN is about the chain's last target, not the name asked.
    const end = chainEnd(name, packet.answers ?? []);
    const detail = end === name ? `${name} does not exist (NXDOMAIN)` : `${name} is an alias (CNAME) of ${end}, which does not exist (NXDOMAIN)`;
    return { ok: false, name, type, failure: 'nxdomain', detail };
  }
  if (rcode === 'SERVFAIL') return { ok: false, name, type, failure: 'servfail', detail: `the resolver failed to look up ${type} ${name} (SERVFAIL)` };
  if (rcode === 'REFUSED') return { ok: false, name, type, failure: 'refused', detail: `the resolver refused to look up ${type} ${name} (REFUSED)` };
  if (rcode !== 'NOERROR') return { ok: false, name, type, failure: 'malformed', detail: `the resolver answered ${type} ${name} with ${rcode}` };

  const answers = (packet.answers ?? []).filter((a) => (a as { class?: string }).class === undefined || (a as { class?: string }).class === 'IN');
  let owner = name;
  let records: DnsRecord<T>[] = [];
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop += 1) {
    records = answers.filter((a) => a.type === type && bareName(a.name) === owner).flatMap((a) => toRecord(type, a));
    if (records.length > 0 || type === 'CNAME') break;
    const alias = answers.find((a) => a.type === 'CNAME' && bareName(a.name) === owner);
    if (!alias) break;
    owner = bareName((alias as { data: string }).data);
  }
  if (records.length === 0) return { ok: false, name, type, failure: 'nodata', detail: `${name} has no ${type} record` };
  return { ok: true, name, type, records };
}

/** The last owner of the CNAME chain that starts at `name` in an answer section (`name` itself when there is none). */
function chainEnd(name: string, answers: readonly Answer[]): string {
  let owner = bareName(name);
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop += 1) {
    const alias = answers.find((a) => a.type === 'CNAME' && bareName(a.name) === owner);
    if (!alias || typeof (alias as { data?: unknown }).data !== 'string') break;
    owner = bareName((alias as { data: string }).data);
  }
  return owner === bareName(name) ? name : owner;
}

function toRecord<T extends DnsRecordType>(type: T, answer: Answer): DnsRecord<T>[] {
  const ttl = (answer as { ttl?: number }).ttl ?? 0;
  const raw = (answer as { data?: unknown }).data;
  const data = toData(type, raw);
  return data === null ? [] : [{ data: data as DnsRecordData[T], ttl }];
}

function toData(type: DnsRecordType, raw: unknown): DnsRecordData[DnsRecordType] | null {
  switch (type) {
    case 'A': case 'AAAA':
      return typeof raw === 'string' ? raw : null;
    case 'CNAME': case 'NS': case 'PTR':
      return typeof raw === 'string' ? raw.replace(/\.$/, '') : null;
    case 'MX': {
      const mx = raw as { preference?: number; exchange?: string } | null;
      return mx && typeof mx.exchange === 'string' ? { preference: mx.preference ?? 0, exchange: mx.exchange.replace(/\.$/, '') } : null;
    }
    case 'TXT': {
      // A TXT record is a list of character-strings; the checks join them as their RFCs say.
      const parts = Array.isArray(raw) ? raw : [raw];
      return parts.map((p) => (Buffer.isBuffer(p) ? p.toString('utf8') : String(p)));
    }
    case 'SOA': {
      const s = raw as DnsRecordData['SOA'] | null;
      return s ? { mname: s.mname.replace(/\.$/, ''), rname: s.rname.replace(/\.$/, ''), serial: s.serial, refresh: s.refresh, retry: s.retry, expire: s.expire, minimum: s.minimum } : null;
    }
    case 'CAA': {
      const c = raw as { flags?: number; tag?: string; value?: string } | null;
      return c && typeof c.tag === 'string' ? { flags: c.flags ?? 0, tag: c.tag, value: c.value ?? '' } : null;
    }
  }
}
