import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import type { DnsServerAddress } from '../../config/dns-server-address.js';

/** What one UDP exchange produced. */
export type UdpExchangeResult =
  | { readonly kind: 'reply'; readonly packet: DecodedPacket }
  | { readonly kind: 'timeout'; readonly detail: string }
  | { readonly kind: 'malformed'; readonly detail: string }
  | { readonly kind: 'cancelled'; readonly detail: string };

export interface UdpQuestion {
  readonly server: DnsServerAddress;
  /** The query's bytes for the id the pool chose. */
  readonly encode: (id: number) => Buffer;
  /** True when a decoded reply answers this question (id, QR, question name and type: RFC 5452). */
  readonly matches: (packet: DecodedPacket, id: number) => boolean;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface UdpSocketPool {
  ask(question: UdpQuestion): Promise<UdpExchangeResult>;
  /** Sockets opened since the pool was made (tests and the bench). */
  readonly socketsOpened: number;
  /** Closes every socket; outstanding questions fail as cancelled. */
  close(): void;
}

export interface UdpSocketPoolOptions {
  /** A socket is retired after this many questions, so the source port keeps changing (RFC 5452 9.2). */
  readonly questionsPerSocket: number;
  /** Sockets in use at once per address family; questions go round them in turn. */
  readonly width?: number;
}

/** The form a reply's source address comes in: IPv6 compressed and lower case (::1, not 0:0:...:1). */
function canonicalHost(server: DnsServerAddress): string {
  return server.family === 6 ? new URL(`http://[${server.host}]/`).hostname.slice(1, -1) : server.host;
}

interface Pending {
  readonly server: DnsServerAddress;
  readonly host: string;
  readonly matches: (packet: DecodedPacket) => boolean;
  mismatched: boolean;
  finish(result: UdpExchangeResult): void;
}

interface PooledSocket {
  readonly socket: Socket;
  readonly pending: Map<number, Pending>;
  sent: number;
  retired: boolean;
  closed: boolean;
}

function decode(bytes: Buffer): DecodedPacket | null {
  try {
    return dnsPacket.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * UDP sockets shared by the questions of every request: opening and binding a socket per question
 * was a third of a grade's CPU. Each question gets a random 16-bit id unused on its socket, and a
 * reply is matched to its question by id, source address and port, and question (RFC 5452 9.1).
 * A socket takes `questionsPerSocket` questions and is then retired (closed once its last question
 * is settled), so source ports still vary. Sockets are unref'd: an idle pool never keeps the
 * process alive, while a question in flight does (its timer is not unref'd).
 *
 * A reply that cannot be decoded: its first two octets are still the id, so when they name a
 * question outstanding on this socket and the datagram came from the server that question was sent
 * to, that question (and only it) fails at once as malformed, as it did with a socket of its own.
 * Datagrams from elsewhere, or with an id nobody waits for, are dropped: with a shared socket, a
 * stray packet must not fail someone else's question.
 */
export function createUdpSocketPool(options: UdpSocketPoolOptions): UdpSocketPool {
  const perSocket = Math.max(1, Math.floor(options.questionsPerSocket));
  const width = Math.max(1, Math.floor(options.width ?? 4));
  const active: Record<4 | 6, PooledSocket[]> = { 4: [], 6: [] };
  const turn: Record<4 | 6, number> = { 4: 0, 6: 0 };
  const all = new Set<PooledSocket>();
  let opened = 0;

  function closeSocket(s: PooledSocket): void {
    if (s.closed) return;
    s.closed = true;
    all.delete(s);
    try {
      s.socket.close();
    } catch {
      // Already closed by an error.
    }
  }

  function retire(family: 4 | 6, s: PooledSocket): void {
    s.retired = true;
    active[family] = active[family].filter((x) => x !== s);
    if (s.pending.size === 0) closeSocket(s);
  }

  function open(family: 4 | 6): PooledSocket {
    const socket = createSocket(family === 6 ? 'udp6' : 'udp4');
    const pooled: PooledSocket = { socket, pending: new Map(), sent: 0, retired: false, closed: false };
    opened += 1;
    all.add(pooled);
    socket.unref();
    socket.on('error', (err) => {
      for (const p of [...pooled.pending.values()]) p.finish({ kind: 'timeout', detail: `could not reach ${p.server.host}:${p.server.port}: ${err.message}` });
      retire(family, pooled);
      closeSocket(pooled);
    });
    socket.on('message', (bytes, rinfo) => {
      if (bytes.length < 2) return;
      const id = bytes.readUInt16BE(0);
      const pending = pooled.pending.get(id);
      if (!pending || rinfo.address !== pending.host || rinfo.port !== pending.server.port) return;
      const packet = decode(bytes);
      if (packet === null)
        pending.finish({ kind: 'malformed', detail: `${pending.server.host}:${pending.server.port} sent a reply that is not a DNS message` });
      else if (pending.matches(packet)) pending.finish({ kind: 'reply', packet });
      else pending.mismatched = true;
    });
    return pooled;
  }

  function socketFor(family: 4 | 6): PooledSocket {
    const list = active[family];
    if (list.length < width) {
      const fresh = open(family);
      list.push(fresh);
      return fresh;
    }
    turn[family] = (turn[family] + 1) % list.length;
    return list[turn[family]] as PooledSocket;
  }

  function freeId(s: PooledSocket): number {
    for (;;) {
      const id = randomInt(0, 65536);
      if (!s.pending.has(id)) return id;
    }
  }

  return {
    ask(question: UdpQuestion): Promise<UdpExchangeResult> {
      const { server, timeoutMs, signal } = question;
      if (signal?.aborted) return Promise.resolve({ kind: 'cancelled', detail: 'the request was cancelled before the question was sent' });
      return new Promise((resolve) => {
        const family = server.family;
        const pooled = socketFor(family);
        const id = freeId(pooled);
        let settled = false;
        const pending: Pending = {
          server,
          host: canonicalHost(server),
          matches: (packet) => question.matches(packet, id),
          mismatched: false,
          finish(result) {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            pooled.pending.delete(id);
            if (pooled.retired && pooled.pending.size === 0) closeSocket(pooled);
            resolve(result);
          },
        };
        const onAbort = (): void => pending.finish({ kind: 'cancelled', detail: 'the request was cancelled while the question was in flight' });
        const timer = setTimeout(
          () =>
            pending.finish(
              pending.mismatched
                ? { kind: 'malformed', detail: `${server.host}:${server.port} sent only replies that did not match the question` }
                : { kind: 'timeout', detail: `${server.host}:${server.port} did not answer within ${timeoutMs} ms` },
            ),
          timeoutMs,
        );
        signal?.addEventListener('abort', onAbort, { once: true });
        pooled.pending.set(id, pending);
        pooled.sent += 1;
        if (pooled.sent >= perSocket) retire(family, pooled);
        pooled.socket.send(question.encode(id), server.port, server.host, (err) => {
          if (err) pending.finish({ kind: 'timeout', detail: `could not send to ${server.host}:${server.port}: ${err.message}` });
        });
      });
    },
    get socketsOpened() {
      return opened;
    },
    close() {
      for (const s of [...all]) {
        for (const p of [...s.pending.values()]) p.finish({ kind: 'cancelled', detail: 'the DNS socket pool was closed' });
        closeSocket(s);
      }
      active[4] = [];
      active[6] = [];
    },
  };
}

const shared = new Map<number, UdpSocketPool>();

/** One pool per process (per retirement setting): requests share sockets, never answers. */
export function sharedUdpSocketPool(questionsPerSocket: number): UdpSocketPool {
  let pool = shared.get(questionsPerSocket);
  if (!pool) {
    pool = createUdpSocketPool({ questionsPerSocket });
    shared.set(questionsPerSocket, pool);
  }
  return pool;
}
