import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { createServer, type Server, type Socket } from 'node:net';
import { recordVerified } from '../../resolvers/orders/domain-verification.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The port oracle through the door (issue 32, item 9): `POST /v1/domains/{domain}/setup/apply` with
 * `"dry_run": true`, over HTTP on a running service, through a connection to a DNS server on the
 * internet that refuses the connection, closes it, never answers or answers something other than
 * DNS, answers one kind of failure (the same status, code and sentence but for the port number:
 * the zone could not be read, because the server "did not answer a signed DNS message").
 * dns-dry-run-oracle.test.ts checks the same in-process, and the deadline.
 *
 * As there, the "internet" is a public address whose connections this process sends to local
 * servers (node:net's connect, replaced for this file): the service runs as it ships.
 */
const PUBLIC = '93.184.215.14';
let service: TestService;
let domain: string;
const servers: Server[] = [];
const held: Socket[] = [];
const redirect = new Map<number, number>();
const net = createRequire(import.meta.url)('node:net') as typeof import('node:net');
const originalConnect = net.connect;

async function listen(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    held.push(socket);
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

beforeAll(async () => {
  const closedPort = await listen(() => {});
  await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
  redirect.set(2001, closedPort); // refused: nothing listens
  redirect.set(2002, await listen(() => {})); // never answers
  redirect.set(2003, await listen((socket) => socket.destroy())); // closes at once
  redirect.set(2004, await listen((socket) => socket.end(Buffer.from([0, 4, 0x48, 0x54, 0x54, 0x50])))); // not DNS
  net.connect = ((...args: unknown[]) => {
    const [options] = args;
    if (typeof options === 'object' && options !== null && Reflect.get(options, 'host') === PUBLIC) {
      const to = redirect.get(Number(Reflect.get(options, 'port')));
      if (to !== undefined) return Reflect.apply(originalConnect, net, [{ ...(options as object), host: '127.0.0.1', port: to }]);
    }
    return Reflect.apply(originalConnect, net, args);
  }) as typeof net.connect;
  syncBuiltinESMExports();
  // Over real sockets (not socketless): the answer as a caller on the network reads it.
  service = await startTestService({
    env: { DNS_PUBLISH_TIMEOUT_MS: '1000', DNS_SERVERS: '127.0.0.1:9', DNS_TIMEOUT_MS: '300', DNS_TRIES: '1' },
  });
  const row = await service.services.db
    .selectFrom('domains')
    .select('domain')
    .where('account_id', '=', service.demo.accountId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  domain = row.domain;
  // Proving the domain is another test's subject (domain-verification tests): here it is taken as proved.
  await recordVerified(service.services.db, service.demo.accountId, [domain], new Date());
}, 60_000);
afterAll(async () => {
  net.connect = originalConnect;
  syncBuiltinESMExports();
  for (const socket of held) socket.destroy();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  await service?.close();
});

async function post(path: string, body: unknown) {
  const response = await service.api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

describe('a dry run through REST against servers on the internet', () => {
  it('refused, silent, closed and non-DNS ports answer one failure, which names no way the connection failed', async () => {
    const answers: { status: number; code: string; detail: string }[] = [];
    for (const port of [2001, 2002, 2003, 2004]) {
      const made = await post('/v1/dns-connections', {
        kind: 'rfc2136',
        server: PUBLIC,
        port,
        key_name: 'update-key',
        secret: randomBytes(32).toString('base64'),
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const applied = await post(`/v1/domains/${domain}/setup/apply`, { connection_id: made.body.connection_id, dry_run: true });
      answers.push({ status: applied.status, code: applied.body.code, detail: String(applied.body.detail).replaceAll(`port ${port}`, 'port N') });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size, JSON.stringify(answers, null, 1)).toBe(1);
    // The dry run reads the zone through the connection first: an unreadable zone refuses the apply
    // as a failed lookup (nothing is planned over a record that could not be read), the sentence
    // giving the connection's one failure.
    expect(answers[0]).toMatchObject({ status: 503, code: 'dns_lookup_failed' });
    expect(answers[0]!.detail).toContain(`The DNS server ${PUBLIC} port N did not answer a signed DNS message`);
    expect(answers[0]!.detail).not.toMatch(/refused|reset|timed? ?out|closed|ECONN/i);
  });
});
