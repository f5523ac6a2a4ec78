import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { randomInt } from 'node:crypto';
import dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import type { DnsRecordType } from './dns-types.js';
import type { DnsServerAddress } from './dns-server-address.js';

/** What one try against one server produced. */
export type DnsTryResult =
  | { readonly kind: 'reply'; readonly packet: DecodedPacket }
  | { readonly kind: 'timeout'; readonly detail: string }
  | { readonly kind: 'malformed'; readonly detail: string };

/**
 * Asks one question of one server: over UDP first, and again over TCP when the reply comes back
 * truncated (RFC 1035 4.2.1, RFC 7766: a TC reply means "ask over TCP"). Each query carries a fresh
 * random id, and a reply counts only when its id and question match ours (RFC 5452), so a stray or
 * spoofed datagram is ignored rather than believed.
 */
export async function sendDnsQuery(server: DnsServerAddress, name: string, type: DnsRecordType, timeoutMs: number): Promise<DnsTryResult> {
  const udp = await sendOverUdp(server, name, type, timeoutMs);
  if (udp.kind === 'reply' && udp.packet.flag_tc) return sendOverTcp(server, name, type, timeoutMs);
  return udp;
}

function encodeQuery(id: number, name: string, type: DnsRecordType): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type, class: 'IN', name }],
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
  return packet.id === id && packet.type === 'response' && q !== undefined
    && q.type === type && q.name.toLowerCase().replace(/\.$/, '') === name;
}

function sendOverUdp(server: DnsServerAddress, name: string, type: DnsRecordType, timeoutMs: number): Promise<DnsTryResult> {
  return new Promise((resolve) => {
    const id = randomInt(0, 65536);
    const socket = createSocket(server.family === 6 ? 'udp6' : 'udp4');
    let mismatched = false;
    let settled = false;
    const finish = (result: DnsTryResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      resolve(result);
    };
    const timer = setTimeout(() => finish(mismatched
      ? { kind: 'malformed', detail: `${server.host}:${server.port} sent only replies that did not match the question` }
      : { kind: 'timeout', detail: `${server.host}:${server.port} did not answer within ${timeoutMs} ms` }), timeoutMs);
    socket.on('error', (err) => finish({ kind: 'timeout', detail: `could not reach ${server.host}:${server.port}: ${err.message}` }));
    socket.on('message', (bytes) => {
      const packet = decodeReply(bytes);
      if (packet === null) {
        finish({ kind: 'malformed', detail: `${server.host}:${server.port} sent a reply that is not a DNS message` });
      } else if (answersOurQuestion(packet, id, name, type)) {
        finish({ kind: 'reply', packet });
      } else {
        mismatched = true;
      }
    });
    socket.send(encodeQuery(id, name, type), server.port, server.host, (err) => {
      if (err) finish({ kind: 'timeout', detail: `could not send to ${server.host}:${server.port}: ${err.message}` });
    });
  });
}

function sendOverTcp(server: DnsServerAddress, name: string, type: DnsRecordType, timeoutMs: number): Promise<DnsTryResult> {
  return new Promise((resolve) => {
    const id = randomInt(0, 65536);
    const socket = connect({ host: server.host, port: server.port });
    let buffered = Buffer.alloc(0);
    let settled = false;
    const finish = (result: DnsTryResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout', detail: `${server.host}:${server.port} did not answer over TCP within ${timeoutMs} ms` }), timeoutMs);
    socket.on('error', (err) => finish({ kind: 'timeout', detail: `TCP to ${server.host}:${server.port} failed: ${err.message}` }));
    socket.on('connect', () => {
      // RFC 1035 4.2.2: over TCP every message is preceded by its two-byte length.
      const query = encodeQuery(id, name, type);
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
      else if (!answersOurQuestion(packet, id, name, type)) finish({ kind: 'malformed', detail: `${server.host}:${server.port} answered a different question over TCP` });
      else finish({ kind: 'reply', packet });
    });
    socket.on('end', () => finish({ kind: 'malformed', detail: `${server.host}:${server.port} closed the TCP connection without a full reply` }));
  });
}
