import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, createServer, type Server, type Socket } from 'node:net';
import dnsPacket from 'dns-packet';

/** What the resolver does with a question a rule matches. */
export type ResolverFault = 'servfail' | 'refused' | 'timeout';

export interface FailingResolver {
  /** "127.0.0.1:PORT", for DNS_SERVERS. */
  readonly server: string;
  /** Fail every question for `name` (lower case, no final dot), or only those of `type`. */
  fail(name: string, fault: ResolverFault, type?: string): void;
  /** Answer everything from upstream again. */
  heal(): void;
  /** Every question received, as "name/TYPE". */
  readonly questions: string[];
  close(): Promise<void>;
}

const RCODE = { servfail: 2, refused: 5 } as const;

/**
 * A resolver in front of an upstream one (a BIND started with `resolver: true`), as a customer's or
 * our own caching resolver sits in front of the zone: it forwards each question over UDP and TCP
 * unchanged, except those a rule makes fail (SERVFAIL, REFUSED, or no answer at all). The
 * service's lookups (DNS_SERVERS) go through it; the publisher and the tests read the zone at the
 * upstream directly.
 */
export async function startFailingResolver(upstreamPort: number): Promise<FailingResolver> {
  const rules = new Map<string, ResolverFault>();
  const questions: string[] = [];
  const held: Socket[] = [];

  /** The fault for a query, or null to forward it; records the question. */
  function faultOf(query: Buffer): { fault: ResolverFault | null; packet: dnsPacket.DecodedPacket | null } {
    let packet: dnsPacket.DecodedPacket;
    try {
      packet = dnsPacket.decode(query);
    } catch {
      return { fault: null, packet: null };
    }
    const q = packet.questions?.[0];
    if (!q) return { fault: null, packet };
    const name = q.name.toLowerCase().replace(/\.$/, '');
    questions.push(`${name}/${q.type}`);
    return { fault: rules.get(`${name}/${q.type}`) ?? rules.get(name) ?? null, packet };
  }

  function failure(packet: dnsPacket.DecodedPacket, fault: 'servfail' | 'refused'): Buffer {
    return dnsPacket.encode({
      id: packet.id,
      type: 'response',
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | RCODE[fault],
      questions: packet.questions,
    });
  }

  const udp: UdpSocket = createSocket('udp4');
  udp.on('message', (query, from) => {
    const { fault, packet } = faultOf(query);
    if (fault === 'timeout') return;
    if (fault && packet) {
      udp.send(failure(packet, fault), from.port, from.address);
      return;
    }
    const out = createSocket('udp4');
    const timer = setTimeout(() => out.close(), 5000);
    out.once('message', (reply) => {
      clearTimeout(timer);
      out.close();
      udp.send(reply, from.port, from.address);
    });
    out.send(query, upstreamPort, '127.0.0.1');
  });

  // Over TCP (a truncated UDP answer is asked again there): one length-prefixed message at a time.
  const tcp: Server = createServer((socket) => {
    let buffered = Buffer.alloc(0);
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const query = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
        buffered = buffered.subarray(2 + query.length);
        const { fault, packet } = faultOf(query);
        if (fault === 'timeout') {
          held.push(socket);
          continue;
        }
        if (fault && packet) {
          socket.write(framed(failure(packet, fault)));
          continue;
        }
        forwardOverTcp(Buffer.from(query), upstreamPort).then(
          (reply) => socket.write(framed(reply)),
          () => socket.destroy(),
        );
      }
    });
  });

  // UDP and TCP on one port number, as a resolver listens.
  for (;;) {
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const port = udp.address().port;
    const listened = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listened) break;
    await new Promise<void>((resolve) => udp.close(() => resolve()));
  }
  const port = udp.address().port;
  return {
    server: `127.0.0.1:${port}`,
    questions,
    fail(name, fault, type) {
      rules.set(type ? `${name}/${type.toUpperCase()}` : name, fault);
    },
    heal() {
      rules.clear();
    },
    async close() {
      for (const s of held) s.destroy();
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

function framed(message: Buffer): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(message.length);
  return Buffer.concat([length, message]);
}

function forwardOverTcp(query: Buffer, port: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('upstream did not answer over TCP'));
    }, 5000);
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('connect', () => socket.write(framed(query)));
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
      }
    });
  });
}
