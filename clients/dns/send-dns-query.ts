import { connect } from 'node:net';
import { randomInt } from 'node:crypto';
import dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import type { DnsRecordType } from './dns-types.js';
import type { DnsServerAddress } from '../../config/dns-server-address.js';
import { sharedUdpSocketPool } from './udp-socket-pool.js';
import type { UdpExchangeResult, UdpSocketPool } from './udp-socket-pool.js';
import { replyCode } from './packet-field.js';

/** What one try against one server produced. */
export type DnsTryResult = UdpExchangeResult;

/**
 * The UDP payload size we advertise (RFC 6891 6.2.5): 1232 octets, the DNS flag day 2020 value,
 * fits an IPv6 minimum MTU without fragmentation and carries most answers without a TCP retry.
 */
export const EDNS_UDP_PAYLOAD = 1232;

export interface DnsQueryOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** RD: false for a direct question to an authoritative server (delegation health). */
  readonly recursionDesired?: boolean;
  /** The UDP sockets to ask through; the process-wide pool by default. */
  readonly pool?: UdpSocketPool;
}

/**
 * Asks one question of one server: over UDP first, and again over TCP when the reply comes back
 * truncated (RFC 1035 4.2.1, RFC 7766: a TC reply means "ask over TCP"). Every query carries EDNS(0)
 * with DO set (RFC 3225) and recursive queries set AD (RFC 6840 5.7), so a validating resolver
 * tells us about DNSSEC (AD) and may add Extended DNS Errors. Each query carries a fresh random id, and a reply counts only when its id and question
 * match ours (RFC 5452). An aborted signal abandons the question at once, on either transport.
 */
export async function sendDnsQuery(server: DnsServerAddress, name: string, type: DnsRecordType, options: DnsQueryOptions): Promise<DnsTryResult> {
  const recursionDesired = options.recursionDesired ?? true;
  const pool = options.pool ?? sharedUdpSocketPool(100);
  const overUdp = (edns: boolean) =>
    pool.ask({
      server,
      encode: (id) => encodeQuery(id, name, type, recursionDesired, edns),
      matches: (packet, id) => answersOurQuestion(packet, id, name, type),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
  let udp = await overUdp(true);
  // RFC 6891 7: a server that does not know EDNS answers FORMERR without an OPT; ask it plainly.
  if (udp.kind === 'reply' && replyCode(udp.packet) === 'FORMERR' && !(udp.packet.additionals ?? []).some((a) => a.type === 'OPT')) {
    udp = await overUdp(false);
  }
  if (udp.kind === 'reply' && udp.packet.flag_tc) return sendOverTcp(server, name, type, recursionDesired, options.timeoutMs, options.signal);
  return udp;
}

export function encodeQuery(id: number, name: string, type: DnsRecordType, recursionDesired = true, edns = true): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    // AD in a query asks a validating resolver to say whether it validated the answer (RFC 6840 5.7),
    // which also holds when the OPT record (with DO) had to be left out for an old server.
    flags: recursionDesired ? dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA : 0,
    questions: [{ type, class: 'IN', name }],
    additionals: edns ? [{ type: 'OPT', name: '.', udpPayloadSize: EDNS_UDP_PAYLOAD, flags: dnsPacket.DNSSEC_OK, options: [] } as never] : [],
  });
}

/** Null when the bytes are not a DNS message at all. */
function decodeReply(bytes: Buffer): DecodedPacket | null {
  try {
    return dnsPacket.decode(bytes);
  } catch {
    return null;
  }
}

function answersOurQuestion(packet: DecodedPacket, id: number, name: string, type: DnsRecordType): boolean {
  const q = packet.questions?.[0];
  return packet.id === id && packet.type === 'response' && q !== undefined && q.type === type && q.name.toLowerCase().replace(/\.$/, '') === name;
}

function sendOverTcp(
  server: DnsServerAddress,
  name: string,
  type: DnsRecordType,
  recursionDesired: boolean,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<DnsTryResult> {
  if (signal?.aborted) return Promise.resolve({ kind: 'cancelled', detail: 'the request was cancelled before the TCP retry' });
  return new Promise((resolve) => {
    const id = randomInt(0, 65536);
    const socket = connect({ host: server.host, port: server.port });
    let buffered = Buffer.alloc(0);
    let settled = false;
    const finish = (result: DnsTryResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(result);
    };
    const onAbort = (): void => finish({ kind: 'cancelled', detail: 'the request was cancelled while the TCP question was in flight' });
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => finish({ kind: 'timeout', detail: `${server.host}:${server.port} did not answer over TCP within ${timeoutMs} ms` }),
      timeoutMs,
    );
    socket.on('error', (err) => finish({ kind: 'timeout', detail: `TCP to ${server.host}:${server.port} failed: ${err.message}` }));
    socket.on('connect', () => {
      // RFC 1035 4.2.2: over TCP every message is preceded by its two-byte length.
      const query = encodeQuery(id, name, type, recursionDesired);
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(query.length);
      socket.write(Buffer.concat([prefix, query]));
    });
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2) return;
      const length = buffered.readUInt16BE(0);
      if (buffered.length < 2 + length) return;
      const packet = decodeReply(buffered.subarray(2, 2 + length));
      if (packet === null) finish({ kind: 'malformed', detail: `${server.host}:${server.port} sent a TCP reply that is not a DNS message` });
      else if (!answersOurQuestion(packet, id, name, type))
        finish({ kind: 'malformed', detail: `${server.host}:${server.port} answered a different question over TCP` });
      else finish({ kind: 'reply', packet });
    });
    socket.on('end', () => finish({ kind: 'malformed', detail: `${server.host}:${server.port} closed the TCP connection without a full reply` }));
  });
}
