import { createSocket } from 'node:dgram';
import type { Socket as UdpSocket } from 'node:dgram';
import { createServer } from 'node:net';
import type { Server as TcpServer, Socket as TcpSocket } from 'node:net';
import { randomBytes } from 'node:crypto';
import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, Packet } from 'dns-packet';
import type { DnsRecordData, DnsRecordType } from '../../resolvers/checks/dns/dns-types.js';

/** One fixture record; `data` has the same shape as the engine's DnsRecordData for its type. */
export type ZoneRecord = {
  [T in DnsRecordType]: { readonly name: string; readonly type: T; readonly data: DnsRecordData[T]; readonly ttl?: number }
}[DnsRecordType];

/** nxdomain: answer NXDOMAIN whatever exists at or below the name (a provider breaking RFC 8020). */
export type TestDnsBehaviour = 'timeout' | 'servfail' | 'refused' | 'garbage' | 'nxdomain';

export interface TestDnsServerOptions {
  records: ZoneRecord[];
  /** Added before every answer (benchmarks). */
  delayMs?: number;
  /**
   * By lower-case name, any type; a key "*.zone" applies to every name below zone. A key "name/TYPE" (e.g. "example.com/TXT") applies to that type
   * only, which the SPF conformance suite needs ("TIMEOUT" beside records of other types).
   */
  behaviours?: Record<string, TestDnsBehaviour>;
}

export interface TestDnsServer {
  /** "127.0.0.1:PORT", for DNS_SERVERS. */
  server: string;
  port: number;
  /** Every question received, in order (UDP and TCP). */
  questions: { name: string; type: string }[];
  setRecords(records: ZoneRecord[]): void;
  close(): Promise<void>;
}

const UDP_LIMIT = 512;
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

function bare(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** TXT character-strings are at most 255 octets (RFC 1035 3.3); longer fixture strings are split. */
function txtChunks(strings: readonly string[]): Buffer[] {
  return strings.flatMap((s) => {
    const bytes = Buffer.from(s, 'utf8');
    if (bytes.length <= 255) return [bytes];
    const out: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 255) out.push(bytes.subarray(i, i + 255));
    return out;
  });
}

function toWire(record: ZoneRecord): Answer {
  const base = { name: record.name, ttl: record.ttl ?? 300, class: 'IN' as const };
  switch (record.type) {
    case 'TXT': return { ...base, type: 'TXT', data: txtChunks(record.data) };
    case 'MX': return { ...base, type: 'MX', data: { preference: record.data.preference, exchange: record.data.exchange } };
    case 'SOA': return { ...base, type: 'SOA', data: { ...record.data } };
    case 'CAA': return { ...base, type: 'CAA', data: { flags: record.data.flags, tag: record.data.tag as 'issue', value: record.data.value } };
    default: return { ...base, type: record.type, data: record.data };
  }
}

/**
 * A local authoritative DNS server for tests and benchmarks, over UDP and TCP on one port, answering
 * from fixture records. It behaves as a recursive resolver would towards our client: CNAMEs inside
 * the zone are chased into the answer section; a name with no record at or below it is NXDOMAIN,
 * a name with records of other types is NOERROR with no answers; UDP replies over 512 octets are
 * sent empty with TC set so the client retries over TCP.
 */
export async function startTestDnsServer(options: TestDnsServerOptions): Promise<TestDnsServer> {
  let records: ZoneRecord[] = options.records;
  const behaviours = new Map(Object.entries(options.behaviours ?? {}).map(([k, v]) => {
    const slash = k.lastIndexOf('/');
    return [slash > 0 ? `${bare(k.slice(0, slash))}/${k.slice(slash + 1).toUpperCase()}` : bare(k), v] as const;
  }));
  const delayMs = options.delayMs ?? 0;
  const questions: { name: string; type: string }[] = [];

  /** A key "*.zone" applies to every name below zone (a DNSSEC-bogus or lame zone fails them all). */
  const subtreeBehaviour = (name: string): TestDnsBehaviour | undefined => {
    const labels = name.split('.');
    for (let i = 1; i < labels.length; i += 1) {
      const found = behaviours.get(`*.${labels.slice(i).join('.')}`);
      if (found) return found;
    }
    return undefined;
  };

  const nameExists = (name: string): boolean => records.some((r) => bare(r.name) === name || bare(r.name).endsWith(`.${name}`));

  /**
   * RFC 4592 wildcard synthesis, minimally: a name that does not exist takes the records of
   * "*.<closest encloser>" (its nearest existing ancestor), if that wildcard exists; null otherwise.
   */
  function wildcardRecords(name: string): ZoneRecord[] | null {
    if (nameExists(name)) return null;
    const labels = name.split('.');
    for (let i = 1; i < labels.length; i += 1) {
      const ancestor = labels.slice(i).join('.');
      if (!nameExists(ancestor)) continue;
      const matching = records.filter((r) => bare(r.name) === `*.${ancestor}`);
      return matching.length > 0 ? matching : null;
    }
    return null;
  }

  function answer(query: DecodedPacket): { reply: Buffer | null; garbage: boolean } {
    const q = query.questions?.[0];
    const header = { type: 'response' as const, id: query.id ?? 0, questions: query.questions ?? [] };
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED);
    if (!q) return { reply: dnsPacket.encode({ ...header, flags: flags | 1 }), garbage: false };
    const name = bare(q.name);
    questions.push({ name, type: q.type });
    const behaviour = behaviours.get(`${name}/${q.type}`) ?? behaviours.get(name) ?? subtreeBehaviour(name);
    if (behaviour === 'timeout') return { reply: null, garbage: false };
    if (behaviour === 'garbage') return { reply: randomBytes(7), garbage: true };
    if (behaviour === 'servfail') return { reply: dnsPacket.encode({ ...header, flags: flags | RCODE.SERVFAIL }), garbage: false };
    if (behaviour === 'refused') return { reply: dnsPacket.encode({ ...header, flags: flags | RCODE.REFUSED }), garbage: false };
    if (behaviour === 'nxdomain') return { reply: dnsPacket.encode({ ...header, flags: flags | RCODE.NXDOMAIN }), garbage: false };

    const answers: Answer[] = [];
    let owner = name;
    for (let hop = 0; hop < 16; hop += 1) {
      const wildcard = wildcardRecords(owner);
      if (wildcard !== null) {
        // RFC 4592: the wildcard's records are answered with the name asked as their owner.
        answers.push(...wildcard.filter((r) => r.type === q.type).map((r) => toWire({ ...r, name: owner } as ZoneRecord)));
        break;
      }
      const matching = records.filter((r) => bare(r.name) === owner && r.type === q.type);
      if (matching.length > 0 || q.type === 'CNAME') {
        answers.push(...matching.map(toWire));
        break;
      }
      const alias = records.find((r) => bare(r.name) === owner && r.type === 'CNAME');
      if (!alias) break;
      answers.push(toWire(alias));
      owner = bare(alias.data as string);
    }
    const exists = records.some((r) => bare(r.name) === owner || bare(r.name).endsWith(`.${owner}`)) || wildcardRecords(owner) !== null;
    // RFC 6604: the rcode is about the last name of the chain, so a CNAME to a name that does not
    // exist is NXDOMAIN with the CNAME in the answer section, as real servers answer it.
    const rcode = !exists && !answers.some((a) => a.type === q.type) ? RCODE.NXDOMAIN : RCODE.NOERROR;
    const packet: Packet = { ...header, flags: flags | rcode, answers };
    return { reply: dnsPacket.encode(packet), garbage: false };
  }

  function truncated(query: DecodedPacket): Buffer {
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.TRUNCATED_RESPONSE | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED);
    return dnsPacket.encode({ type: 'response', id: query.id ?? 0, flags, questions: query.questions ?? [], answers: [] });
  }

  function decode(bytes: Buffer): DecodedPacket | null {
    try {
      return dnsPacket.decode(bytes);
    } catch {
      return null;
    }
  }

  const later = (fn: () => void): void => {
    if (delayMs > 0) setTimeout(fn, delayMs);
    else fn();
  };

  const createUdp = (): UdpSocket => {
    const socket = createSocket('udp4');
    socket.on('message', (bytes, rinfo) => {
      const query = decode(bytes);
      if (!query) return;
      const { reply, garbage } = answer(query);
      if (!reply) return;
      const out = !garbage && reply.length > UDP_LIMIT ? truncated(query) : reply;
      later(() => socket.send(out, rinfo.port, rinfo.address, () => undefined));
    });
    return socket;
  };

  const sockets = new Set<TcpSocket>();
  const tcp: TcpServer = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const length = buffered.readUInt16BE(0);
        const query = decode(buffered.subarray(2, 2 + length));
        buffered = buffered.subarray(2 + length);
        if (!query) continue;
        const { reply } = answer(query);
        if (!reply) continue;
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(reply.length);
        later(() => {
          if (!socket.destroyed) socket.write(Buffer.concat([prefix, reply]));
        });
      }
    });
  });

  // UDP and TCP must share one port (a client falls back to TCP on the same address); if another
  // process holds the TCP side of the port UDP was given, start over with a fresh port.
  let port = 0;
  let udp = createUdp();
  for (let attempt = 0; ; attempt += 1) {
    if (attempt > 0) udp = createUdp();
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => {
        udp.off('error', reject);
        resolve();
      });
    });
    port = udp.address().port;
    const listened = await new Promise<boolean>((resolve) => {
      const onError = (): void => resolve(false);
      tcp.once('error', onError);
      tcp.listen(port, '127.0.0.1', () => {
        tcp.off('error', onError);
        resolve(true);
      });
    });
    if (listened) break;
    if (attempt >= 10) throw new Error('The test DNS server could not find a port free for both UDP and TCP.');
    await new Promise<void>((resolve) => udp.close(() => resolve()));
  }
  const boundUdp = udp;

  return {
    server: `127.0.0.1:${port}`,
    port,
    questions,
    setRecords(next: ZoneRecord[]) {
      records = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => boundUdp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}
