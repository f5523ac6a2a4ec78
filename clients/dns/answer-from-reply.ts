import type { Answer, DecodedPacket } from 'dns-packet';
import type { DnsAnswer, DnsRecord, DnsRecordData, DnsRecordType, DnssecStatus, ExtendedDnsError } from './dns-types.js';
import { describeExtendedDnsError, isBogusCode, readExtendedDnsError } from './extended-dns-errors.js';
import { packetField, replyCode } from './packet-field.js';

/** A CNAME chain longer than this inside one answer is treated as a loop. */
const MAX_CNAME_HOPS = 16;

/** Names compare case-insensitively (RFC 4343); answers carry them lower case, without the root dot. */
export function bareName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

export interface ReplyReading {
  /** True for our ordinary questions (RD set): a reply that did not recurse is a configuration error. */
  readonly recursionDesired: boolean;
}

/** A referral (RFC 1034 4.3.2 step 3b): no answer, NS records in authority and no SOA. */
export function referralNameservers(packet: DecodedPacket): string[] {
  const authority = packet.authorities ?? [];
  if ((packet.answers ?? []).length > 0 || authority.some((a) => a.type === 'SOA')) return [];
  return authority.filter((a) => a.type === 'NS').map((a) => bareName(String(packetField(a, 'data'))));
}

/** Glue of a referral: the addresses in the additional section of the referral's own NS names. */
export function referralGlue(packet: DecodedPacket): Record<string, string[]> {
  const names = new Set(referralNameservers(packet));
  const glue: Record<string, string[]> = {};
  for (const a of packet.additionals ?? []) {
    if (a.type !== 'A' && a.type !== 'AAAA') continue;
    const owner = bareName(a.name);
    const data = (a as { data?: unknown }).data;
    if (!names.has(owner) || typeof data !== 'string') continue;
    (glue[owner] ??= []).push(data);
  }
  return glue;
}

const NOT_RECURSIVE_ADVICE = 'DNS_SERVERS points at a server that does not recurse (an authoritative-only server); point it at a recursive resolver';

/**
 * Turns a decoded reply into the engine's answer. The recursive resolver has already chased CNAMEs
 * and put the chain in the answer section (RFC 1034 4.3.2), so we walk it from the asked name to the
 * records of the asked type. CNAME records themselves are only returned when CNAME was asked:
 * a check asking for TXT wants text, not the aliases on the way.
 */
export function answerFromReply<T extends DnsRecordType>(
  name: string,
  type: T,
  packet: DecodedPacket,
  reading: ReplyReading = { recursionDesired: true },
): DnsAnswer<T> {
  const rcode = replyCode(packet);
  const ede = readExtendedDnsError(packet);
  const extra: { dnssec: DnssecStatus; ede?: ExtendedDnsError } = { dnssec: dnssecOfReply(rcode, packet, ede, reading), ...(ede ? { ede } : {}) };
  const because = ede ? `: ${describeExtendedDnsError(ede)}` : '';
  const negative = negativeTtlOf(packet);
  if (reading.recursionDesired && rcode !== 'REFUSED') {
    // RA clear on a reply to a recursive question, or a referral where an answer belongs: the
    // server only serves its own zones, so anything it says (or does not) is not about this name.
    const referral = rcode === 'NOERROR' ? referralNameservers(packet) : [];
    if (!packet.flag_ra || referral.length > 0) {
      const how = !packet.flag_ra ? 'answered without recursion (RA clear)' : `sent a referral to ${referral.slice(0, 3).join(', ')} instead of an answer`;
      return {
        ok: false,
        name,
        type,
        failure: 'not_recursive',
        detail: `${type} ${name} could not be looked up: the resolver ${how}. ${NOT_RECURSIVE_ADVICE}`,
        ...extra,
      };
    }
  }
  if (rcode === 'NXDOMAIN') {
    // RFC 6604: with a CNAME chain in the answer, NXDOMAIN is about the chain's last target, not the name asked.
    const end = chainEnd(name, packet.answers ?? []);
    if (end === name) return { ok: false, name, type, failure: 'nxdomain', detail: `${name} does not exist (NXDOMAIN)`, ...negative, ...extra };
    return {
      ok: false,
      name,
      type,
      failure: 'nxdomain',
      detail: `${name} is an alias (CNAME) of ${end}, which does not exist (NXDOMAIN)`,
      canonical: end,
      ...negative,
      ...extra,
    };
  }
  if (rcode === 'SERVFAIL') {
    const detail = ede ? `the resolver failed to look up ${type} ${name} (SERVFAIL)${because}` : `the resolver failed to look up ${type} ${name} (SERVFAIL)`;
    return { ok: false, name, type, failure: 'servfail', detail, ...extra };
  }
  if (rcode === 'REFUSED')
    return { ok: false, name, type, failure: 'refused', detail: `the resolver refused to look up ${type} ${name} (REFUSED)${because}`, ...extra };
  if (rcode !== 'NOERROR')
    return { ok: false, name, type, failure: 'malformed', detail: `the resolver answered ${type} ${name} with ${rcode}${because}`, ...extra };

  const answers = (packet.answers ?? []).filter((a) => {
    const recordClass = packetField(a, 'class');
    return recordClass === undefined || recordClass === 'IN';
  });
  let owner = name;
  let records: DnsRecord<T>[] = [];
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop += 1) {
    records = answers.filter((a) => a.type === type && bareName(a.name) === owner).flatMap((a) => toRecord(type, a));
    if (records.length > 0 || type === 'CNAME') break;
    const alias = answers.find((a) => a.type === 'CNAME' && bareName(a.name) === owner);
    const target = packetField(alias, 'data');
    if (typeof target !== 'string') break;
    owner = bareName(target);
  }
  const alias = owner === bareName(name) ? {} : { canonical: owner };
  if (records.length === 0) return { ok: false, name, type, failure: 'nodata', detail: `${name} has no ${type} record`, ...alias, ...negative, ...extra };
  return { ok: true, name, type, records, ...alias, ...extra };
}

/**
 * The DNSSEC status of one reply (dns-types.ts, DnssecStatus). Only a recursive reply from a
 * resolver that recurses can say anything: AD from an authoritative server asked directly, or from a
 * server that does not recurse, is not a validation.
 */
function dnssecOfReply(rcode: string, packet: DecodedPacket, ede: ExtendedDnsError | null, reading: ReplyReading): DnssecStatus {
  if (rcode === 'SERVFAIL') return ede && isBogusCode(ede) ? 'bogus' : 'indeterminate';
  if (rcode !== 'NOERROR' && rcode !== 'NXDOMAIN') return 'indeterminate';
  if (!reading.recursionDesired || !packet.flag_ra || (rcode === 'NOERROR' && referralNameservers(packet).length > 0)) return 'indeterminate';
  return packet.flag_ad ? 'secure' : 'insecure';
}

/** RFC 2308 5: a negative answer is cached for the lesser of its SOA's TTL and the SOA's minimum field. */
function negativeTtlOf(packet: DecodedPacket): { negativeTtl?: number } {
  const soa = (packet.authorities ?? []).find((a) => a.type === 'SOA');
  const ttl = packetField(soa, 'ttl');
  const minimum = packetField(packetField(soa, 'data'), 'minimum');
  if (typeof ttl !== 'number') return {};
  return { negativeTtl: typeof minimum === 'number' ? Math.min(ttl, minimum) : ttl };
}

/** The last owner of the CNAME chain that starts at `name` in an answer section (`name` itself when there is none). */
function chainEnd(name: string, answers: readonly Answer[]): string {
  let owner = bareName(name);
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop += 1) {
    const alias = answers.find((a) => a.type === 'CNAME' && bareName(a.name) === owner);
    const target = packetField(alias, 'data');
    if (typeof target !== 'string') break;
    owner = bareName(target);
  }
  return owner === bareName(name) ? name : owner;
}

function toRecord<T extends DnsRecordType>(type: T, answer: Answer): DnsRecord<T>[] {
  const ttl = packetField(answer, 'ttl');
  const data = toData(type, packetField(answer, 'data'));
  return data === null ? [] : [{ data: data as DnsRecordData[T], ttl: typeof ttl === 'number' ? ttl : 0 }];
}

function toData(type: DnsRecordType, raw: unknown): DnsRecordData[DnsRecordType] | null {
  switch (type) {
    case 'A':
    case 'AAAA':
      return typeof raw === 'string' ? raw : null;
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return typeof raw === 'string' ? bareName(raw) : null;
    case 'MX': {
      // Lower case here so an exchange asked about next (`ASPMX.L.Google.com.`) is the same
      // question as the one another domain's MX named (`aspmx.l.google.com`).
      const exchange = packetField(raw, 'exchange');
      const preference = packetField(raw, 'preference');
      return typeof exchange === 'string' ? { preference: typeof preference === 'number' ? preference : 0, exchange: bareName(exchange) } : null;
    }
    case 'TXT': {
      // A TXT record is a list of character-strings; the checks join them as their RFCs say.
      const parts = Array.isArray(raw) ? raw : [raw];
      return parts.map((p) => (Buffer.isBuffer(p) ? p.toString('utf8') : String(p)));
    }
    case 'SOA': {
      const text = (name: string): string => String(packetField(raw, name) ?? '');
      const count = (name: string): number => Number(packetField(raw, name) ?? 0);
      return typeof raw === 'object' && raw !== null
        ? {
            mname: bareName(text('mname')),
            rname: bareName(text('rname')),
            serial: count('serial'),
            refresh: count('refresh'),
            retry: count('retry'),
            expire: count('expire'),
            minimum: count('minimum'),
          }
        : null;
    }
    case 'CAA': {
      const tag = packetField(raw, 'tag');
      const flags = packetField(raw, 'flags');
      const value = packetField(raw, 'value');
      return typeof tag === 'string' ? { flags: typeof flags === 'number' ? flags : 0, tag, value: typeof value === 'string' ? value : '' } : null;
    }
  }
}
