import { createSocket } from 'node:dgram';
import type { Socket as UdpSocket } from 'node:dgram';
import { createServer, isIPv6 } from 'node:net';
import type { Server as TcpServer, Socket as TcpSocket } from 'node:net';
import { randomBytes } from 'node:crypto';
import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, Packet } from 'dns-packet';
import type { DnsRecordData, DnsRecordType } from '../../clients/dns/dns-types.js';
import { applyUpdate, OPCODE_UPDATE, RCODE_NOTAUTH, RCODE_REFUSED, readSignedRequest, signAnswer, updateAnswer, type TsigServerKey } from './dns-update.js';

/** One fixture record; `data` has the same shape as the engine's DnsRecordData for its type. */
export type ZoneRecord = {
  [T in DnsRecordType]: { readonly name: string; readonly type: T; readonly data: DnsRecordData[T]; readonly ttl?: number };
}[DnsRecordType];

/** nxdomain: answer NXDOMAIN whatever exists at or below the name (a provider breaking RFC 8020). */
export type TestDnsBehaviour = 'timeout' | 'servfail' | 'refused' | 'garbage' | 'nxdomain';

/** An Extended DNS Error (RFC 8914) to answer with, as a validating resolver does. */
export interface TestExtendedError {
  readonly code: number;
  readonly text?: string;
  /** SERVFAIL unless said otherwise. */
  readonly rcode?: 'SERVFAIL' | 'NOERROR' | 'NXDOMAIN' | 'REFUSED';
  /**
   * The code of every later answer to the same question, without text: what a resolver answers from
   * its cache after the first validation failure (unbound and bind9: 6 DNSSEC Bogus, or 13 Cached Error).
   */
  readonly cached?: number;
}

export interface TestDnsServerOptions {
  records: ZoneRecord[];
  /** Added before every answer (benchmarks). */
  delayMs?: number;
  /**
   * By lower-case name, any type. A key "name/TYPE" (e.g. "example.com/TXT") applies to that type
   * only, which the SPF conformance suite needs ("TIMEOUT" beside records of other types).
   */
  behaviours?: Record<string, TestDnsBehaviour>;
  /** Address to bind (any 127/8 address on Linux); 127.0.0.1 by default. */
  address?: string;
  /** Port for UDP and TCP; a free one by default. Several servers on 127.0.0.2, .3 ... can share one. */
  port?: number;
  /** RA in replies (true by default). False emulates an authoritative-only server. */
  recursionAvailable?: boolean;
  /** AA in replies from the served data (true by default). False emulates a lame server. */
  authoritative?: boolean;
  /** Zones served; a question outside them gets a referral (no answer, NS in authority). All by default. */
  zones?: string[];
  /** NS names of the referral for names outside `zones` (a.root-servers.net by default). */
  referralTo?: string[];
  /** Zone cuts inside the served data: a question at or below one gets a referral with the cut's NS and glue, AA clear (a parent server). */
  delegations?: string[];
  /** Names (and every name below them) a validating resolver answers with AD when the query set DO or AD (RFC 6840 5.7). */
  secure?: string[];
  /**
   * By lower-case name: answer with this Extended DNS Error (EDNS queries only carry it). A key
   * "*.zone" applies to every name below zone (a zone whose signatures expired fails them all).
   */
  extendedErrors?: Record<string, TestExtendedError>;
  /** A server from before EDNS: FORMERR, without an OPT, to any query that carries one. */
  noEdns?: boolean;
  /** The largest UDP payload the server sends to an EDNS client (1232 by default). */
  ednsPayload?: number;
  /**
   * Take RFC 2136 updates signed with this TSIG key (test/support/dns-update.ts) for every zone the
   * records hold an SOA for, and sign the answers to signed queries. Unsigned updates are REFUSED; a
   * wrong key or signature is NOTAUTH with BADKEY or BADSIG, as BIND answers.
   */
  tsig?: TsigServerKey;
}

/** One question as received. */
export interface ReceivedQuestion {
  /** Lower case, no trailing dot. */
  name: string;
  type: string;
  /** The name as it came on the wire (case kept). */
  asked: string;
  transport: 'udp' | 'tcp';
  /** An OPT record was present (EDNS(0)), its payload size and DO bit. */
  edns: boolean;
  payload: number | null;
  dnssecOk: boolean;
  /** AD in the query's header: the client asks whether the answer was validated (RFC 6840 5.7). */
  authenticatedData: boolean;
  recursionDesired: boolean;
  /** The query's id and the client's source port: what a spoofer would need to guess. */
  id: number;
  sourcePort: number;
}

export interface TestDnsServer {
  /** "ADDRESS:PORT", for DNS_SERVERS. */
  server: string;
  address: string;
  port: number;
  /** Every question received, in order (UDP and TCP). */
  questions: ReceivedQuestion[];
  /**
   * The most questions this server held at once, received and not yet answered (with `delayMs`): a
   * lower bound of what the client had in flight, whatever the machine's load did to the timing.
   */
  readonly mostUnanswered: number;
  setRecords(records: ZoneRecord[]): void;
  close(): Promise<void>;
}

const UDP_LIMIT = 512;
const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

function bare(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

function within(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`);
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
    case 'TXT':
      return { ...base, type: 'TXT', data: txtChunks(record.data) };
    case 'MX':
      return { ...base, type: 'MX', data: { preference: record.data.preference, exchange: record.data.exchange } };
    case 'SOA':
      return { ...base, type: 'SOA', data: { ...record.data } };
    case 'CAA':
      return { ...base, type: 'CAA', data: { flags: record.data.flags, tag: record.data.tag as 'issue', value: record.data.value } };
    default:
      return { ...base, type: record.type, data: record.data };
  }
}

/**
 * A local authoritative DNS server for tests and benchmarks, over UDP and TCP on one port, answering
 * from fixture records. By default it behaves as a recursive resolver would towards our client (RA
 * and AA set): CNAMEs inside the zone are chased into the answer section; a name with no record at
 * or below it is NXDOMAIN (with the zone's SOA in authority when the fixture has one), a name with
 * records of other types or only below it (an empty non-terminal) is NOERROR with no answers;
 * wildcards (`*.zone`) are synthesised for names that do not exist (RFC 4592). Owner names keep the
 * fixture's case and match case-insensitively. EDNS queries get an OPT record back and UDP answers
 * up to the client's payload size (at most `ednsPayload`); without EDNS, UDP replies over 512 octets
 * are sent empty with TC set, so the client retries over TCP. Options emulate a validating resolver
 * (AD, Extended DNS Errors), a server that does not recurse, a parent server's referrals and a lame
 * server.
 */
export async function startTestDnsServer(options: TestDnsServerOptions): Promise<TestDnsServer> {
  let records: ZoneRecord[] = options.records;
  const behaviours = new Map(
    Object.entries(options.behaviours ?? {}).map(([k, v]) => {
      const slash = k.lastIndexOf('/');
      return [slash > 0 ? `${bare(k.slice(0, slash))}/${k.slice(slash + 1).toUpperCase()}` : bare(k), v] as const;
    }),
  );
  const extendedErrors = new Map(Object.entries(options.extendedErrors ?? {}).map(([k, v]) => [bare(k), v] as const));
  const zones = options.zones?.map(bare);
  const delegations = (options.delegations ?? []).map(bare);
  const secure = (options.secure ?? []).map(bare);
  const serverPayload = options.ednsPayload ?? 1232;
  const delayMs = options.delayMs ?? 0;
  const questions: ReceivedQuestion[] = [];

  /** A key "*.zone" applies to every name below zone (a DNSSEC-bogus or lame zone fails them all). */
  /** Questions already answered with an Extended DNS Error, for `cached`. */
  const edeAnswered = new Set<string>();
  const extendedErrorFor = (name: string, type: string): TestExtendedError | undefined => {
    let found = extendedErrors.get(name);
    const labels = name.split('.');
    for (let i = 1; i < labels.length && !found; i += 1) found = extendedErrors.get(`*.${labels.slice(i).join('.')}`);
    if (!found) return undefined;
    const key = `${name}/${type}`;
    if (found.cached !== undefined && edeAnswered.has(key)) return { code: found.cached, ...(found.rcode ? { rcode: found.rcode } : {}) };
    edeAnswered.add(key);
    return found;
  };

  const subtreeBehaviour = (name: string): TestDnsBehaviour | undefined => {
    const labels = name.split('.');
    for (let i = 1; i < labels.length; i += 1) {
      const found = behaviours.get(`*.${labels.slice(i).join('.')}`);
      if (found) return found;
    }
    return undefined;
  };

  const nameExists = (n: string): boolean => records.some((r) => within(bare(r.name), n));

  /** Records at `owner` (RFC 4592: from the closest encloser's wildcard when the name does not exist). */
  function recordsAt(owner: string): { found: ZoneRecord[]; exists: boolean } {
    if (nameExists(owner)) return { found: records.filter((r) => bare(r.name) === owner), exists: true };
    const labels = owner.split('.');
    for (let i = 1; i < labels.length; i += 1) {
      const encloser = labels.slice(i).join('.');
      if (!nameExists(encloser)) continue;
      const source = records.filter((r) => bare(r.name) === `*.${encloser}`);
      return { found: source.map((r) => ({ ...r, name: owner }) as ZoneRecord), exists: source.length > 0 };
    }
    return { found: [], exists: false };
  }

  function soaFor(name: string): Answer[] {
    const soa = records.filter((r) => r.type === 'SOA' && within(name, bare(r.name))).sort((a, b) => bare(b.name).length - bare(a.name).length)[0];
    return soa ? [toWire(soa)] : [];
  }

  function answer(query: DecodedPacket, transport: 'udp' | 'tcp', sourcePort: number): { reply: Buffer | null; garbage: boolean; limit: number } {
    const q = query.questions?.[0];
    const opt = (query.additionals ?? []).find((a) => a.type === 'OPT') as { udpPayloadSize?: number; flags?: number } | undefined;
    const dnssecOk = ((opt?.flags ?? 0) & dnsPacket.DNSSEC_OK) !== 0;
    const authenticatedData = ((query.flags ?? 0) & dnsPacket.AUTHENTIC_DATA) !== 0;
    const limit = opt ? Math.min(Math.max(UDP_LIMIT, opt.udpPayloadSize ?? UDP_LIMIT), serverPayload) : UDP_LIMIT;
    const rd = (query.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
    const ra = options.recursionAvailable === false ? 0 : dnsPacket.RECURSION_AVAILABLE;
    const aa = options.authoritative === false ? 0 : dnsPacket.AUTHORITATIVE_ANSWER;
    const ednsOut = (ede?: TestExtendedError): Answer[] => {
      if (!opt) return [];
      const data = ede ? Buffer.concat([Buffer.from([ede.code >> 8, ede.code & 0xff]), Buffer.from(ede.text ?? '', 'utf8')]) : null;
      return [
        {
          type: 'OPT',
          name: '.',
          udpPayloadSize: serverPayload,
          flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0,
          options: data ? [{ code: 15, data }] : [],
        } as unknown as Answer,
      ];
    };
    const header = { type: 'response' as const, id: query.id ?? 0, questions: query.questions ?? [] };
    if (!q) return { reply: dnsPacket.encode({ ...header, flags: aa | ra | rd | 1, additionals: ednsOut() }), garbage: false, limit };
    const name = bare(q.name);
    questions.push({
      name,
      type: q.type,
      asked: q.name,
      transport,
      edns: opt !== undefined,
      payload: opt?.udpPayloadSize ?? null,
      dnssecOk,
      authenticatedData,
      recursionDesired: rd !== 0,
      id: query.id ?? 0,
      sourcePort,
    });
    if (opt && options.noEdns) return { reply: dnsPacket.encode({ ...header, flags: aa | ra | rd | RCODE.FORMERR }), garbage: false, limit };
    const behaviour = behaviours.get(`${name}/${q.type}`) ?? behaviours.get(name) ?? subtreeBehaviour(name);
    if (behaviour === 'timeout') return { reply: null, garbage: false, limit };
    // A broken server's reply: our id, then bytes that are not a DNS message.
    if (behaviour === 'garbage')
      return { reply: Buffer.concat([Buffer.from([(query.id ?? 0) >> 8, (query.id ?? 0) & 0xff]), randomBytes(5)]), garbage: true, limit };
    if (behaviour === 'servfail')
      return { reply: dnsPacket.encode({ ...header, flags: aa | ra | rd | RCODE.SERVFAIL, additionals: ednsOut() }), garbage: false, limit };
    // bind9 refusing a zone it does not serve: AA clear (it is authoritative for nothing here).
    if (behaviour === 'refused')
      return { reply: dnsPacket.encode({ ...header, flags: ra | rd | RCODE.REFUSED, additionals: ednsOut() }), garbage: false, limit };
    if (behaviour === 'nxdomain')
      return { reply: dnsPacket.encode({ ...header, flags: aa | ra | rd | RCODE.NXDOMAIN, additionals: ednsOut() }), garbage: false, limit };
    const ede = extendedErrorFor(name, q.type);
    if (ede)
      return { reply: dnsPacket.encode({ ...header, flags: aa | ra | rd | RCODE[ede.rcode ?? 'SERVFAIL'], additionals: ednsOut(ede) }), garbage: false, limit };

    // Outside the served zones: a referral towards the root (what an authoritative-only server says).
    if (zones && !zones.some((z) => within(name, z))) {
      const tld = name.split('.').pop() ?? name;
      const authorities: Answer[] = (options.referralTo ?? ['a.root-servers.net']).map((data) => ({ type: 'NS', name: tld, ttl: 300, class: 'IN', data }));
      return { reply: dnsPacket.encode({ ...header, flags: ra | rd, authorities, additionals: ednsOut() }), garbage: false, limit };
    }
    // At or below a zone cut: the parent's referral, AA clear, NS of the cut and their glue.
    const cut = delegations.filter((d) => within(name, d)).sort((a, b) => b.length - a.length)[0];
    if (cut) {
      const nsRecords = records.filter((r) => r.type === 'NS' && bare(r.name) === cut);
      const nsNames = new Set(nsRecords.map((r) => bare(r.data as string)));
      const glue = records.filter((r) => (r.type === 'A' || r.type === 'AAAA') && nsNames.has(bare(r.name)));
      return {
        reply: dnsPacket.encode({ ...header, flags: ra | rd, authorities: nsRecords.map(toWire), additionals: [...glue.map(toWire), ...ednsOut()] }),
        garbage: false,
        limit,
      };
    }

    const answers: Answer[] = [];
    let owner = name;
    let exists = false;
    for (let hop = 0; hop < 16; hop += 1) {
      const at = recordsAt(owner);
      exists = at.exists;
      const matching = at.found.filter((r) => r.type === q.type);
      if (matching.length > 0 || q.type === 'CNAME') {
        answers.push(...matching.map(toWire));
        break;
      }
      const alias = at.found.find((r) => r.type === 'CNAME');
      if (!alias) break;
      answers.push(toWire(alias));
      owner = bare(alias.data as string);
    }
    // RFC 6604: the rcode is about the chain's last name, so a CNAME to a name that does not exist is
    // NXDOMAIN with the CNAME in the answer section, as real servers answer it.
    const rcode = !exists && !answers.some((a) => a.type === q.type) ? RCODE.NXDOMAIN : RCODE.NOERROR;
    // RFC 6840 5.7: a validating resolver sets AD only for a client that asked (DO or AD).
    const ad = secure.some((z) => within(name, z)) && (dnssecOk || authenticatedData) ? dnsPacket.AUTHENTIC_DATA : 0;
    const authorities = answers.length === 0 ? soaFor(owner) : [];
    const packet: Packet = { ...header, flags: aa | ra | rd | ad | rcode, answers, authorities, additionals: ednsOut() };
    return { reply: dnsPacket.encode(packet), garbage: false, limit };
  }

  /** A request as bytes: TSIG checked and answers signed when the server has a key; updates applied. */
  function handle(
    bytes: Buffer,
    transport: 'udp' | 'tcp',
    sourcePort: number,
  ): { reply: Buffer | null; garbage: boolean; limit: number; query: DecodedPacket } | null {
    const key = options.tsig;
    const isUpdate = bytes.length >= 4 && ((bytes.readUInt16BE(2) >> 11) & 0xf) === OPCODE_UPDATE;
    if (!key) {
      const query = decode(bytes);
      return query ? { ...answer(query, transport, sourcePort), query } : null;
    }
    let signed: ReturnType<typeof readSignedRequest>;
    try {
      signed = readSignedRequest(bytes, key);
    } catch {
      return null;
    }
    const query = decode(signed.kind === 'unsigned' ? bytes : signed.message);
    if (!query) return null;
    const flagsOf = (rcode: number) => ((isUpdate ? OPCODE_UPDATE : 0) << 11) | rcode;
    const headerOnly = (rcode: number) => dnsPacket.encode({ type: 'response', id: query.id ?? 0, flags: flagsOf(rcode), questions: query.questions ?? [] });
    if (signed.kind === 'refused')
      return { reply: signAnswer(headerOnly(RCODE_NOTAUTH), key, null, signed.error, signed), garbage: false, limit: 65535, query };
    if (signed.kind === 'unsigned') {
      if (isUpdate) return { reply: headerOnly(RCODE_REFUSED), garbage: false, limit: 65535, query };
      return { ...answer(query, transport, sourcePort), query };
    }
    if (isUpdate) {
      const applied = applyUpdate(records, query);
      if ('records' in applied) records = applied.records;
      return { reply: signAnswer(updateAnswer(query, applied.rcode), key, signed.mac), garbage: false, limit: 65535, query };
    }
    const plain = answer(query, transport, sourcePort);
    return { ...plain, reply: plain.reply && !plain.garbage ? signAnswer(plain.reply, key, signed.mac) : plain.reply, query };
  }

  function truncated(query: DecodedPacket): Buffer {
    const opt = (query.additionals ?? []).some((a) => a.type === 'OPT');
    const ra = options.recursionAvailable === false ? 0 : dnsPacket.RECURSION_AVAILABLE;
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | ra | dnsPacket.TRUNCATED_RESPONSE | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED);
    const additionals = opt ? [{ type: 'OPT', name: '.', udpPayloadSize: serverPayload, flags: 0, options: [] } as unknown as Answer] : [];
    return dnsPacket.encode({ type: 'response', id: query.id ?? 0, flags, questions: query.questions ?? [], answers: [], additionals });
  }

  function decode(bytes: Buffer): DecodedPacket | null {
    try {
      return dnsPacket.decode(bytes);
    } catch {
      return null;
    }
  }

  let unanswered = 0;
  let mostUnanswered = 0;
  const later = (fn: () => void): void => {
    unanswered += 1;
    mostUnanswered = Math.max(mostUnanswered, unanswered);
    const send = (): void => {
      unanswered -= 1;
      fn();
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  };

  const createUdp = (): UdpSocket => {
    const socket = createSocket(isIPv6(options.address ?? '') ? 'udp6' : 'udp4');
    socket.on('message', (bytes, rinfo) => {
      const handled = handle(bytes, 'udp', rinfo.port);
      if (!handled) return;
      const { reply, garbage, limit, query } = handled;
      if (!reply) return;
      const out = !garbage && reply.length > limit ? truncated(query) : reply;
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
        const handled = handle(Buffer.from(buffered.subarray(2, 2 + length)), 'tcp', socket.remotePort ?? 0);
        buffered = buffered.subarray(2 + length);
        if (!handled?.reply) continue;
        const { reply } = handled;
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(reply.length);
        later(() => {
          if (!socket.destroyed) socket.write(Buffer.concat([prefix, reply]));
        });
      }
    });
  });

  // UDP and TCP must share one port (a client falls back to TCP on the same address); if another
  // process holds the TCP side of the port UDP was given, start over with a fresh port. A port
  // given in the options is used as it is, or the start fails.
  const address = options.address ?? '127.0.0.1';
  let port = 0;
  let udp = createUdp();
  for (let attempt = 0; ; attempt += 1) {
    if (attempt > 0) udp = createUdp();
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(options.port ?? 0, address, () => {
        udp.off('error', reject);
        resolve();
      });
    });
    port = udp.address().port;
    const listened = await new Promise<boolean>((resolve) => {
      const onError = (): void => resolve(false);
      tcp.once('error', onError);
      tcp.listen(port, address, () => {
        tcp.off('error', onError);
        resolve(true);
      });
    });
    if (listened) break;
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    if (options.port !== undefined) throw new Error(`The test DNS server could not listen on TCP ${address}:${options.port}.`);
    if (attempt >= 10) throw new Error('The test DNS server could not find a port free for both UDP and TCP.');
  }
  const boundUdp = udp;

  return {
    server: isIPv6(address) ? `[${address}]:${port}` : `${address}:${port}`,
    address,
    port,
    questions,
    get mostUnanswered() {
      return mostUnanswered;
    },
    setRecords(next: ZoneRecord[]) {
      records = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([new Promise<void>((resolve) => boundUdp.close(() => resolve())), new Promise<void>((resolve) => tcp.close(() => resolve()))]);
    },
  };
}

/**
 * Several servers on one port, one per address (127.0.0.2, 127.0.0.3, ...): what direct questions
 * to name servers need, since they all go to one port (DNS_AUTHORITATIVE_PORT). Retries with a new
 * port when one address cannot have the first one's.
 */
export async function startTestDnsServersOnOnePort(list: (TestDnsServerOptions & { address: string })[]): Promise<TestDnsServer[]> {
  for (let attempt = 0; ; attempt += 1) {
    const [first, ...rest] = list;
    if (!first) return [];
    const started: TestDnsServer[] = [await startTestDnsServer(first)];
    try {
      for (const o of rest) started.push(await startTestDnsServer({ ...o, port: started[0]!.port }));
      return started;
    } catch (error) {
      await Promise.all(started.map((s) => s.close()));
      if (attempt >= 5) throw error;
    }
  }
}
