import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { createServer, type Server, type Socket } from 'node:net';
import { createContext } from '../../resolvers/context.js';
import { publishRecords } from '../../resolvers/domains/publishing/publish-records.js';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import { readSettings } from '../../config/settings.js';
import { graphql, startTestService, type TestService } from '../support/test-service.js';

/**
 * A dry run is no port scanner: with private addresses not allowed (the default), a DNS server on the
 * internet that refuses the connection, closes it, never answers or answers something other than a
 * signed DNS message is the same refusal, at the same time (the exchange's deadline). And RFC 2136
 * servers are on port 53 only in production unless the operator lists others (DNS_CONNECTIONS_PORTS).
 *
 * The "internet" here is a public address whose connections this process sends to local servers
 * (node:net's connect, replaced for this file), so the code under test runs as it ships: vetting
 * the public address, connecting, reading what comes back.
 */
const PUBLIC = '93.184.215.14';
const TIMEOUT_MS = 1000;
let service: TestService;
let port53Service: TestService;
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
  // A port nothing listens on: taken, then given back.
  const closedPort = await listen(() => {});
  await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
  redirect.set(1001, closedPort);
  redirect.set(1002, await listen(() => {})); // never answers
  redirect.set(1003, await listen((socket) => socket.destroy())); // closes at once
  // Answers a length-prefixed message that is not DNS, as a non-DNS service might.
  redirect.set(1004, await listen((socket) => socket.end(Buffer.from([0, 4, 0x48, 0x54, 0x54, 0x50]))));
  const replaced = ((...args: unknown[]) => {
    const [options] = args;
    if (typeof options === 'object' && options !== null && Reflect.get(options, 'host') === PUBLIC) {
      const to = redirect.get(Number(Reflect.get(options, 'port')));
      if (to !== undefined) return Reflect.apply(originalConnect, net, [{ ...(options as object), host: '127.0.0.1', port: to }]);
    }
    return Reflect.apply(originalConnect, net, args);
  }) as typeof net.connect;
  net.connect = replaced;
  syncBuiltinESMExports();
  service = await startTestService({ socketless: true, env: { DNS_PUBLISH_TIMEOUT_MS: String(TIMEOUT_MS) } });
  port53Service = await startTestService({ socketless: true, env: { DNS_CONNECTIONS_PORTS: '53' } });
}, 60_000);
afterAll(async () => {
  net.connect = originalConnect;
  syncBuiltinESMExports();
  for (const socket of held) socket.destroy();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  await service?.close();
  await port53Service?.close();
});

async function create(target: TestService, port: number) {
  const response = await target.api('/v1/dns-connections', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'rfc2136', server: PUBLIC, port, key_name: 'update-key', secret: randomBytes(32).toString('base64') }),
  });
  return { status: response.status, body: await response.json() };
}

const contextOf = (target: TestService, publishing = target.services.publishing) =>
  createContext(
    { ...target.services, publishing },
    { authorization: `Bearer ${target.demo.key}`, requestId: randomUUID(), clientAddress: '127.0.0.1', door: 'rest' },
  );

const wanted = [{ type: 'TXT', name: 'oracle.example.com', value: 'v=spf1 -all', ttl: 3600 }] as const;

describe('dry runs against servers on the internet', () => {
  it('refused, closed, silent and non-DNS answers are one refusal, each given at the deadline', async () => {
    const answers: { detail: string; status: number; code: string; ms: number }[] = [];
    for (const port of [1001, 1002, 1003, 1004]) {
      const made = await create(service, port);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const started = performance.now();
      const error = await publishRecords(contextOf(service), made.body.connection_id, [...wanted], true).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      const { status, code, detail } = restAnswerOf(error)!;
      answers.push({ status, code, detail: detail.replace(`port ${port}`, 'port N'), ms: performance.now() - started });
    }
    expect(new Set(answers.map((a) => JSON.stringify([a.status, a.code, a.detail]))).size).toBe(1);
    expect(answers[0]).toMatchObject({
      status: 502,
      code: 'dns_server_unreachable',
      detail: `The DNS server ${PUBLIC} port N did not answer a signed DNS message; check the connection's server, port and key, and that the server accepts DNS over TCP from this service. Nothing was changed.`,
    });
    // A refused connection fails at once on the wire; the answer still waits for the deadline.
    for (const answer of answers) expect(answer.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  });
});

describe('the ports an RFC 2136 server may listen on', () => {
  it('unset, 53 only in production and any port elsewhere; DNS_CONNECTIONS_PORTS lists others or "any"', () => {
    const production = {
      NODE_ENV: 'production',
      SECRETS_KEY: randomBytes(32).toString('base64'),
      REPORTS_DOMAIN: 'reports.example.com',
      FORWARD_TARGET: '198.51.100.7',
    };
    expect(readSettings(production).publishing.allowedPorts).toEqual([53]);
    expect(readSettings({ ...production, DNS_CONNECTIONS_PORTS: '53, 5353' }).publishing.allowedPorts).toEqual([53, 5353]);
    expect(readSettings({ ...production, DNS_CONNECTIONS_PORTS: 'any' }).publishing.allowedPorts).toBeNull();
    expect(readSettings({}).publishing.allowedPorts).toBeNull();
    expect(() => readSettings({ DNS_CONNECTIONS_PORTS: '53,http' })).toThrow(/DNS_CONNECTIONS_PORTS must be "any" or port numbers/);
  });

  it('a connection on another port is refused on REST and GraphQL where only 53 is allowed, and one stored before is refused at use', async () => {
    const refused = await create(port53Service, 5353);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'dns_server_port_refused', detail: expect.stringMatching(/port 53 only, not 5353.*DNS_CONNECTIONS_PORTS/) });
    const viaGraphql = await graphql(
      port53Service,
      `mutation ($secret: String!) { createDnsConnection(input: {kind: rfc2136, server: "${PUBLIC}", port: 5353, keyName: "k", secret: $secret}) { connectionId } }`,
      { secret: randomBytes(32).toString('base64') },
    );
    expect(viaGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'dns_server_port_refused' });
    expect((await create(port53Service, 53)).status).toBe(200);

    // Stored while any port was allowed, used after the operator narrowed it: refused before any connection.
    const stored = await create(service, 1001);
    expect(stored.status).toBe(200);
    const narrowed = { ...service.services.publishing, allowedPorts: [53] };
    const atUse = await publishRecords(contextOf(service, narrowed), stored.body.connection_id, [...wanted], true).then(
      () => null,
      (e: unknown) => e,
    );
    expect(restAnswerOf(atUse)).toMatchObject({ status: 422, code: 'dns_server_port_refused' });
  });
});
