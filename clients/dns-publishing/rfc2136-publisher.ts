import { randomInt } from 'node:crypto';
import dnsPacket, { type Answer, type DecodedPacket } from 'dns-packet';
import { DnsPublishingError } from './publishing-error.js';
import { normalizeName, type DnsPublisher, type DnsRecord, type PlannedChange } from './dns-publisher.js';
import { CLASS_IN, CLASS_NONE, encodeHeader, encodeQuestion, encodeRecord } from './dns-wire.js';
import { exchangeOverTcp } from './dns-tcp-exchange.js';
import { vetDnsServer, vetDnsServerPort } from './dns-server-address.js';
import { signMessage, verifyAnswer, type TsigAlgorithm, type TsigKey } from './tsig.js';

export interface Rfc2136Settings {
  readonly server: string;
  readonly port: number;
  readonly keyName: string;
  readonly algorithm: TsigAlgorithm;
}

export interface Rfc2136Options {
  /**
   * DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: tests and private deployments. Also what a caller is told
   * when the server does not answer: the cause (refused, closed, timed out, not DNS) only with it.
   */
  readonly allowPrivateAddresses: boolean;
  /** DNS_CONNECTIONS_PORTS: the ports a server may be on; null for any. */
  readonly allowedPorts: readonly number[] | null;
  readonly timeoutMs: number;
}

const OPCODE_UPDATE = 5 << 11;
const RCODES: Record<number, string> = { 0: 'NOERROR', 1: 'FORMERR', 2: 'SERVFAIL', 3: 'NXDOMAIN', 4: 'NOTIMP', 5: 'REFUSED', 9: 'NOTAUTH', 10: 'NOTZONE' };

interface Answered {
  readonly rcode: string;
  readonly packet: DecodedPacket;
  /** False for an unsigned SERVFAIL or REFUSED, which says nothing about the zone. */
  readonly signed: boolean;
}

/**
 * One TSIG-signed exchange with the connection's server over TCP: the answer, its RCODE and whether
 * it was signed; a refused key, no answer or a bad answer is a DnsPublishingError.
 */
function createSignedExchange(settings: Rfc2136Settings, key: TsigKey, options: Rfc2136Options): (message: Buffer) => Promise<Answered> {
  const where = `${settings.server} port ${settings.port}`;

  async function ask(message: Buffer): Promise<Answered> {
    vetDnsServerPort(settings.port, options.allowedPorts);
    const address = await vetDnsServer(settings.server, options.allowPrivateAddresses);
    const { signed, mac } = signMessage(message, key);
    const deadline = performance.now() + options.timeoutMs;
    const result = await exchangeOverTcp(address, settings.port, signed, options.timeoutMs);
    if (!result.ok)
      throw await unanswered(deadline, `${result.reason}; check the connection's server and port, and that the server accepts DNS over TCP from this service`);
    const answer = result.answer;
    let packet: DecodedPacket;
    try {
      packet = dnsPacket.decode(answer);
    } catch {
      throw await badAnswer(deadline, 'its answer is not a DNS message');
    }
    if (packet.id !== message.readUInt16BE(0)) throw await badAnswer(deadline, 'its answer is for another question');
    const rcode = RCODES[answer.readUInt16BE(2) & 0xf] ?? `RCODE ${answer.readUInt16BE(2) & 0xf}`;
    let verdict: ReturnType<typeof verifyAnswer>;
    try {
      verdict = verifyAnswer(answer, mac, key);
    } catch {
      verdict = { ok: false, error: null, reason: 'its TSIG record is malformed' };
    }
    if (!verdict.ok) {
      // An unsigned SERVFAIL or REFUSED (a server or middlebox that failed the question before
      // checking the key) is a failed answer, never taken as what the zone holds: the caller refuses.
      if (verdict.error === null && (rcode === 'SERVFAIL' || rcode === 'REFUSED')) return { rcode, packet, signed: false };
      if (verdict.error !== null || rcode === 'NOTAUTH')
        throw new DnsPublishingError(
          'tsig_key_refused',
          `The DNS server ${where} refused the TSIG key "${settings.keyName}" (${verdict.error ?? rcode}): check the key name, algorithm and secret against the server's key${verdict.error === 'BADTIME' ? ', and both clocks' : ''}. Nothing was changed.`,
        );
      throw await badAnswer(deadline, verdict.reason);
    }
    return { rcode, packet, signed: true };
  }

  /**
   * A server that gave no signed DNS answer. On the internet (private addresses not allowed) the
   * server and port are a stranger's choice: telling "refused", "closed", "timed out" and "answered
   * something else" apart, or answering sooner for one of them, would make dry runs a port scanner.
   * So every such failure is one kind, answered at the exchange's deadline. An operator who allows
   * private addresses runs their own servers and is told the cause at once.
   */
  async function unanswered(deadline: number, cause: string): Promise<DnsPublishingError> {
    if (options.allowPrivateAddresses) return new DnsPublishingError('dns_server_unreachable', `The DNS server ${where} ${cause}. Nothing was changed.`);
    const left = deadline - performance.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    return new DnsPublishingError(
      'dns_server_unreachable',
      `The DNS server ${where} did not answer a signed DNS message; check the connection's server, port and key, and that the server accepts DNS over TCP from this service. Nothing was changed.`,
    );
  }

  async function badAnswer(deadline: number, reason: string): Promise<DnsPublishingError> {
    if (!options.allowPrivateAddresses) return unanswered(deadline, reason);
    return new DnsPublishingError(
      'dns_server_bad_answer',
      `The DNS server ${where} answered, but ${reason}; check that the connection points at the zone's primary server.`,
    );
  }

  return ask;
}

/** The server does not serve the zone that holds `name`. */
function notServed(where: string, name: string, rcode: string): DnsPublishingError {
  return new DnsPublishingError(
    'dns_zone_not_served',
    `The DNS server ${where} does not answer for ${name} (${rcode}): point the connection at the primary server of the zone that holds ${name}.`,
  );
}

/**
 * Publishes through RFC 2136 dynamic update signed with TSIG, as BIND, Knot, PowerDNS and several
 * providers accept. Records are read by asking the server itself (signed queries, no AXFR); each
 * zone's changes go in one UPDATE message, which the server applies whole or not at all.
 */
export function createRfc2136Publisher(settings: Rfc2136Settings, secret: Buffer, options: Rfc2136Options): DnsPublisher {
  const key: TsigKey = { name: settings.keyName, algorithm: settings.algorithm, secret };
  const where = `${settings.server} port ${settings.port}`;
  const zones = new Map<string, string>();
  // A TXT's strings as the server split them, so deleting it sends the exact bytes it holds.
  const servedTxt = new Map<string, Buffer[]>();

  const ask = createSignedExchange(settings, key, options);

  async function query(name: string, type: string): Promise<Answered> {
    const id = randomInt(0, 65536);
    return ask(Buffer.concat([encodeHeader(id, 0, [1, 0, 0, 0]), encodeQuestion(name, type)]));
  }

  async function zoneOf(name: string): Promise<string> {
    const known = zones.get(name);
    if (known) return known;
    const { rcode, packet } = await query(name, 'SOA');
    const soa = [...(packet.answers ?? []), ...(packet.authorities ?? [])].find((a) => a.type === 'SOA');
    if ((rcode !== 'NOERROR' && rcode !== 'NXDOMAIN') || !soa) throw notServed(where, name, rcode);
    const zone = normalizeName(soa.name);
    zones.set(name, zone);
    return zone;
  }

  return {
    async readRecords(name, type) {
      const wanted = normalizeName(name);
      const { rcode, packet, signed } = await query(wanted, type);
      // A failed read (SERVFAIL, or a REFUSED the server did not sign) is not an empty name: nothing
      // may be planned over it. A signed REFUSED is the server saying it does not serve the zone.
      if (rcode === 'SERVFAIL' || (rcode === 'REFUSED' && !signed))
        throw new DnsPublishingError(
          'dns_lookup_failed',
          `the DNS server ${where} ${rcode === 'SERVFAIL' ? 'failed' : 'refused'} to look up ${type.toUpperCase()} ${wanted} (${rcode})`,
        );
      if (rcode !== 'NOERROR' && rcode !== 'NXDOMAIN') throw notServed(where, wanted, rcode);
      // A CNAME at the name comes with the asked type's answer (with NXDOMAIN too, when its target does
      // not exist: RFC 6604) and is kept, so nothing is planned over an alias.
      return (packet.answers ?? []).flatMap((a) =>
        normalizeName(a.name) === wanted && (a.type === type.toUpperCase() || a.type === 'CNAME') ? toRecord(a, servedTxt) : [],
      );
    },

    async applyChanges(changes) {
      const byZone = new Map<string, PlannedChange[]>();
      for (const change of changes) {
        const zone = await zoneOf(normalizeName(change.record.name));
        byZone.set(zone, [...(byZone.get(zone) ?? []), change]);
      }
      for (const [zone, list] of byZone) {
        const records = list.flatMap((c) => [
          ...(c.replaces ?? []).map((r) => encodeRecord(r, CLASS_NONE, 0, servedTxt.get(txtKey(r)))),
          encodeRecord(c.record, CLASS_IN, c.record.ttl),
        ]);
        const message = Buffer.concat([encodeHeader(randomInt(0, 65536), OPCODE_UPDATE, [1, 0, records.length, 0]), encodeQuestion(zone, 'SOA'), ...records]);
        const { rcode } = await ask(message);
        if (rcode === 'REFUSED' || rcode === 'NOTZONE')
          throw new DnsPublishingError(
            'dns_update_refused',
            `The DNS server ${where} refused the update to zone ${zone} (${rcode}): its update-policy (or allow-update) must let key "${settings.keyName}" change the names and types being published. Nothing was changed in ${zone}.`,
          );
        if (rcode !== 'NOERROR')
          throw new DnsPublishingError(
            'dns_update_failed',
            `The DNS server ${where} could not apply the update to zone ${zone} (${rcode}); try again later. Nothing was changed in ${zone}.`,
          );
      }
    },

    async rewriteRecords(remove, add) {
      // Removals first, then additions, in one UPDATE per zone: the server applies it whole or not at all.
      const byZone = new Map<string, Buffer[]>();
      const put = async (record: DnsRecord, encoded: Buffer) => {
        const zone = await zoneOf(normalizeName(record.name));
        byZone.set(zone, [...(byZone.get(zone) ?? []), encoded]);
      };
      for (const r of remove) await put(r, encodeRecord(r, CLASS_NONE, 0, servedTxt.get(txtKey(r))));
      for (const r of add)
        await put(
          r,
          encodeRecord(
            r,
            CLASS_IN,
            r.ttl,
            r.strings?.map((c) => Buffer.from(c, 'base64')),
          ),
        );
      for (const [zone, records] of byZone) {
        const message = Buffer.concat([encodeHeader(randomInt(0, 65536), OPCODE_UPDATE, [1, 0, records.length, 0]), encodeQuestion(zone, 'SOA'), ...records]);
        const { rcode } = await ask(message);
        if (rcode === 'REFUSED' || rcode === 'NOTZONE')
          throw new DnsPublishingError(
            'dns_update_refused',
            `The DNS server ${where} refused the update to zone ${zone} (${rcode}): its update-policy (or allow-update) must let key "${settings.keyName}" change these names and types. Nothing was changed in ${zone}.`,
          );
        if (rcode !== 'NOERROR')
          throw new DnsPublishingError(
            'dns_update_failed',
            `The DNS server ${where} could not apply the update to zone ${zone} (${rcode}); try again later. Nothing was changed in ${zone}.`,
          );
      }
    },

    servedStrings(record) {
      return record.type.toUpperCase() === 'TXT' ? servedTxt.get(txtKey(record))?.map((c) => c.toString('base64')) : undefined;
    },
  };
}

function txtKey(record: DnsRecord): string {
  return `${normalizeName(record.name)}|${record.value}`;
}

function toRecord(answer: Answer, servedTxt: Map<string, Buffer[]>): DnsRecord[] {
  if (answer.type === 'OPT') return [];
  const base = { name: normalizeName(answer.name), ttl: answer.ttl ?? 0 };
  switch (answer.type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'NS':
      return [{ ...base, type: answer.type, value: answer.type === 'A' || answer.type === 'AAAA' ? answer.data : normalizeName(answer.data) }];
    case 'MX':
      return [{ ...base, type: 'MX', value: normalizeName(answer.data.exchange), priority: answer.data.preference }];
    case 'TXT': {
      const chunks = (Array.isArray(answer.data) ? answer.data : [answer.data]).map((c) => (typeof c === 'string' ? Buffer.from(c) : c));
      const record = { ...base, type: 'TXT', value: Buffer.concat(chunks).toString('utf8') };
      servedTxt.set(txtKey(record), chunks);
      return [record];
    }
    default:
      return [];
  }
}
