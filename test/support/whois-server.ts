import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface TestWhoisServer {
  /** "127.0.0.1:PORT", for WHOIS_SERVER. */
  readonly server: string;
  /** Every query line received, in order. */
  readonly queries: string[];
  close(): Promise<void>;
}

/**
 * A local WHOIS server (RFC 3912): reads one line, answers the text for that query (lower-cased) or
 * `notFound`, and closes the connection. A query listed in `silent` gets no answer (timeouts).
 */
export async function startTestWhoisServer(options: {
  readonly answers: Readonly<Record<string, string>>;
  readonly notFound?: string;
  readonly silent?: readonly string[];
}): Promise<TestWhoisServer> {
  const queries: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\r\n');
      if (end === -1) return;
      const query = buffered.slice(0, end).trim().toLowerCase();
      queries.push(query);
      if (options.silent?.includes(query)) return;
      socket.end(options.answers[query] ?? options.notFound ?? `No match for "${query}".\r\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
