import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { createContext } from '../../resolvers/context.js';
import { publishRecords } from '../../resolvers/domains/publishing/publish-records.js';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import type { ApiError } from '../../operations/api-error.js';
import type { DnsRecord } from '../../clients/dns-publishing/dns-publisher.js';
import { askBind, startBindServer, type BindServer } from '../support/bind-server.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Publishing through RFC 2136 against a real BIND: a connection made on REST, the setup applied
 * twice (one change set, then none), and the refusals (a wrong key, a wrong key name, a server that
 * refuses connections or never answers) that change nothing and say what to fix.
 */
let service: TestService;
let bind: BindServer;
let silent: Server;
const held: Socket[] = [];

const ZONE = 'publish.test';
const zoneRecords = [
  '@ IN MX 10 mx1.other-provider.test.',
  '@ IN MX 20 mx2.other-provider.test.',
  '@ IN TXT "v=spf1 include:other-provider.test ~all"',
  '@ IN TXT "keep=this"',
  '_dmarc IN TXT "v=DMARC1; p=reject"',
  'www IN A 192.0.2.80',
];
const dkim = `v=DKIM1; k=rsa; p=${randomBytes(270).toString('base64')}`;
const wanted: DnsRecord[] = [
  { type: 'MX', name: ZONE, value: 'smtp.google.com', ttl: 3600, priority: 1 },
  { type: 'TXT', name: ZONE, value: 'v=spf1 include:other-provider.test include:_spf.google.com ~all', ttl: 3600 },
  { type: 'TXT', name: `_dmarc.${ZONE}`, value: 'v=DMARC1; p=reject; rua=mailto:dmarc@reports.example.net', ttl: 3600 },
  { type: 'TXT', name: `google._domainkey.${ZONE}`, value: dkim, ttl: 3600 },
  { type: 'TXT', name: ZONE, value: 'inbox-verification=token123', ttl: 3600 },
];

async function connection(body: Record<string, unknown>): Promise<number> {
  const response = await service.api('/v1/dns-connections', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'rfc2136', ...body }),
  });
  const answer = await response.json();
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer.connection_id;
}

const contextOf = () =>
  createContext(service.services, { authorization: `Bearer ${service.demo.key}`, requestId: randomUUID(), clientAddress: '127.0.0.1', door: 'rest' });

/** The refusal as REST answers it (status, code, sentence). */
async function refusal(run: Promise<unknown>): Promise<ApiError | null> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return restAnswerOf(error);
}

async function zoneNow() {
  return {
    mx: (await askBind(bind.port, ZONE, 'MX')).sort(),
    txt: (await askBind(bind.port, ZONE, 'TXT')).sort(),
    dmarc: await askBind(bind.port, `_dmarc.${ZONE}`, 'TXT'),
    dkim: await askBind(bind.port, `google._domainkey.${ZONE}`, 'TXT'),
  };
}

beforeAll(async () => {
  bind = await startBindServer({ zones: [{ name: ZONE, records: zoneRecords }] });
  service = await startTestService({ socketless: true, env: { DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1', DNS_PUBLISH_TIMEOUT_MS: '1000' } });
  // Accepts connections and never answers: a server that does not answer.
  silent = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
}, 60_000);
afterAll(async () => {
  for (const s of held) s.destroy();
  // silent is unset when beforeAll failed before it; ?. alone would leave this promise pending for ever.
  if (silent) await new Promise<void>((resolve) => silent.close(() => resolve()));
  await service?.close();
  await bind?.stop();
});

describe('RFC 2136 with TSIG against BIND', () => {
  it('a wrong secret or an unknown key name is refused with the TSIG error, and the zone is unchanged', async () => {
    const before = await zoneNow();
    const wrongSecret = await connection({ server: '127.0.0.1', port: bind.port, key_name: bind.key.name, secret: randomBytes(32).toString('base64') });
    const badSig = await refusal(publishRecords(contextOf(), wrongSecret, wanted, false));
    expect(badSig).toMatchObject({
      status: 422,
      code: 'tsig_key_refused',
      detail: expect.stringMatching(/BADSIG.*check the key name, algorithm and secret.*Nothing was changed/),
    });
    const wrongName = await connection({ server: '127.0.0.1', port: bind.port, key_name: 'someone-else', secret: bind.key.secret });
    expect(await refusal(publishRecords(contextOf(), wrongName, wanted, false))).toMatchObject({
      code: 'tsig_key_refused',
      detail: expect.stringMatching(/BADKEY/),
    });
    const wrongAlgorithm = await connection({
      server: '127.0.0.1',
      port: bind.port,
      key_name: bind.key.name,
      algorithm: 'hmac-sha512',
      secret: bind.key.secret,
    });
    expect(await refusal(publishRecords(contextOf(), wrongAlgorithm, wanted, false))).toMatchObject({ code: 'tsig_key_refused' });
    expect(badSig?.detail).not.toContain(bind.key.secret);
    expect(await zoneNow()).toEqual(before);
  });

  it('a server that refuses connections or never answers is a 502 that names it, and nothing changes', async () => {
    const before = await zoneNow();
    const closedPort = await connection({ server: '127.0.0.1', port: 9, key_name: bind.key.name, secret: bind.key.secret });
    expect(await refusal(publishRecords(contextOf(), closedPort, wanted, false))).toMatchObject({
      status: 502,
      code: 'dns_server_unreachable',
      detail: expect.stringMatching(/127\.0\.0\.1 port 9 refused the connection; check the connection's server and port/),
    });
    const { port } = silent.address() as { port: number };
    const mute = await connection({ server: '127.0.0.1', port, key_name: bind.key.name, secret: bind.key.secret });
    // Cut at the 1 s the detail names (no stopwatch: the answer says what ended the wait).
    expect(await refusal(publishRecords(contextOf(), mute, wanted, false))).toMatchObject({
      status: 502,
      code: 'dns_server_unreachable',
      detail: expect.stringMatching(/did not answer within 1 s/),
    });
    expect(await zoneNow()).toEqual(before);
  });

  it('a dry run shows the changes and makes none; applying twice makes one change set, then none', async () => {
    const id = await connection({ server: '127.0.0.1', port: bind.port, key_name: bind.key.name, secret: bind.key.secret, label: 'test BIND' });
    const before = await zoneNow();
    const dry = await publishRecords(contextOf(), id, wanted, true);
    expect(dry.changes.map((c) => [c.action, c.record.type, c.record.name, (c.replaces ?? []).length])).toEqual([
      ['replace', 'MX', ZONE, 2],
      ['replace', 'TXT', ZONE, 1],
      ['add', 'TXT', ZONE, 0],
      ['replace', 'TXT', `_dmarc.${ZONE}`, 1],
      ['add', 'TXT', `google._domainkey.${ZONE}`, 0],
    ]);
    expect(await zoneNow()).toEqual(before);

    const first = await publishRecords(contextOf(), id, wanted, false);
    expect(first.changes).toEqual(dry.changes);
    const after = await zoneNow();
    expect(after.mx).toEqual(['1 smtp.google.com']);
    expect(after.txt).toEqual(['inbox-verification=token123', 'keep=this', 'v=spf1 include:other-provider.test include:_spf.google.com ~all']);
    expect(after.dmarc).toEqual(['v=DMARC1; p=reject; rua=mailto:dmarc@reports.example.net']);
    // A 2048-bit key's record is longer than one 255-byte string: split on the wire, whole when read.
    expect(after.dkim).toEqual([dkim]);
    expect(await askBind(bind.port, `www.${ZONE}`, 'A')).toEqual(['192.0.2.80']);

    const second = await publishRecords(contextOf(), id, wanted, false);
    expect(second.changes).toEqual([]);
    expect(await zoneNow()).toEqual(after);
  });

  it("BIND's log shows the updates signed by the key, and our answers never carry its secret", async () => {
    expect(bind.output()).toMatch(/key publish-key: updating zone 'publish\.test\/IN': adding an RR at 'publish\.test' MX 1 smtp\.google\.com/);
    const listed = await (await service.api('/v1/dns-connections')).text();
    expect(listed).not.toContain(bind.key.secret);
  });
});
