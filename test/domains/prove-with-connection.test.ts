import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { graphql } from '../support/test-service.js';
import { askBind, startBindServer, type BindServer } from '../support/bind-server.js';
import type { ZoneRecord } from '../support/dns-server.js';
import { FREE_DOMAINS, orderingZone, postJson, startOrderingService, type OrderingHarness } from '../orders/support/ordering-fixture.js';
import { runAdminCommand } from '../../admin/run-admin-command.js';

/**
 * Proving a domain through a DNS connection (issue 34, item 1), as a new account made by the
 * operator (admin create-account, create-key), not the demo account whose token the test zones
 * carry. The zones are a real BIND reached as each domain's name server (ns1.<domain>, 127.0.0.1,
 * on DNS_AUTHORITATIVE_PORT) and through an RFC 2136 connection; the service's resolver knows the
 * delegation only, so a domain proved here was proved by what the zone itself serves.
 */
const REST_DOMAIN = FREE_DOMAINS[37]!;
const GQL_DOMAIN = FREE_DOMAINS[38]!;
const MCP_DOMAIN = FREE_DOMAINS[39]!;
const CLI_DOMAIN = FREE_DOMAINS[35]!;
const DOMAINS = [REST_DOMAIN, GQL_DOMAIN, MCP_DOMAIN, CLI_DOMAIN];
const SVC = fileURLToPath(new URL('../../cli/svc.py', import.meta.url));

let h: OrderingHarness;
let bind: BindServer;
let mcp: Client;
let key: string;
let token: string;

/** The resolver: the ordering zone with these domains delegated to ns1.<domain> (127.0.0.1) and no proof record of any account. */
function resolverView(): ZoneRecord[] {
  const ours = (name: string) => DOMAINS.some((d) => name === d || name.endsWith(`.${d}`));
  return [
    ...orderingZone().filter((r) => !ours(r.name)),
    ...DOMAINS.flatMap((d): ZoneRecord[] => [
      { name: d, type: 'NS', data: `ns1.${d}` },
      { name: `ns1.${d}`, type: 'A', data: '127.0.0.1' },
    ]),
  ];
}

async function admin(args: string[]): Promise<Record<string, any>> {
  const outcome = await runAdminCommand(h.service.services.db, args, { keyMode: 'test', jobLeaseMs: 60_000, defaultPlans: [] });
  if (!outcome.ok) throw new Error(`admin ${args[0]} refused: ${outcome.error}`);
  return outcome.result;
}

async function connection(secret: string, as = key): Promise<number> {
  const created = await postJson(
    h.service,
    '/v1/dns-connections',
    { kind: 'rfc2136', server: '127.0.0.1', port: bind.port, key_name: bind.key.name, algorithm: bind.key.algorithm, secret },
    { key: as },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.connection_id;
}

const verify = (domain: string, body?: unknown) => postJson(h.service, `/v1/domains/${domain}/verify`, body, { key });
const proofAt = (domain: string) => askBind(bind.port, `_inbox-verification.${domain}`, 'TXT');
const verifiedList = async () =>
  ((await (await h.service.api('/v1/domains/verification', { key })).json()) as any).verified_domains.map((d: any) => d.domain) as string[];

function svc(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: h.service.apiUrl, SERVICE_API_KEY: key };
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [SVC, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

beforeAll(async () => {
  bind = await startBindServer({ zones: DOMAINS.map((name) => ({ name, records: [] })) });
  h = await startOrderingService({
    env: {
      DNS_AUTHORITATIVE_PORT: String(bind.port),
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
      DNS_PUBLISH_TIMEOUT_MS: '3000',
    },
  });
  h.dns.setRecords(resolverView());
  const account = await admin(['create-account', '--name', 'New customer']);
  key = String((await admin(['create-key', '--account', String(account.account_id), '--scopes', 'read,write'])).key);
  token = ((await (await h.service.api('/v1/domains/verification', { key })).json()) as any).token;
  mcp = new Client({ name: 'prove-with-connection-test', version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
}, 90_000);
afterAll(async () => {
  await mcp?.close();
  await h?.close();
  await bind?.stop();
});

describe('proving a domain through a DNS connection, as a new account', () => {
  it("the new account's token is its own, and without a connection the check says what to publish", async () => {
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    const checked = await verify(REST_DOMAIN);
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body).toMatchObject({ domain: REST_DOMAIN, verified: false, verified_at: null });
    expect(checked.body.detail).toContain(`publish TXT at _inbox-verification.${REST_DOMAIN} with the value "inbox-verification=${token}"`);
    expect(await proofAt(REST_DOMAIN)).toEqual([]);
  });

  it("an unknown connection, another account's connection and a connection_id that is not a number are refused in words; nothing is written", async () => {
    const unknown = await verify(REST_DOMAIN, { connection_id: 999_999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'dns_connection_not_found', detail: 'You have no DNS connection 999999; GET /v1/dns-connections lists yours.' });
    const demos = await connection(bind.key.secret, h.service.demo.key);
    const others = await verify(REST_DOMAIN, { connection_id: demos });
    expect(others.status).toBe(404);
    expect(others.body.code).toBe('dns_connection_not_found');
    const word = await verify(REST_DOMAIN, { connection_id: 'three' });
    expect(word.status).toBe(422);
    expect(word.body.detail).toMatch(/connection_id/);
    expect(await proofAt(REST_DOMAIN)).toEqual([]);
    expect(await verifiedList()).not.toContain(REST_DOMAIN);
  });

  it("a key the zone's server refuses is the publisher's refusal, and the domain stays unproved", async () => {
    const wrong = await connection(randomBytes(32).toString('base64'));
    const refused = await verify(REST_DOMAIN, { connection_id: wrong });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'tsig_key_refused', detail: expect.stringMatching(/refused the TSIG key "publish-key" \(BADSIG\)/) });
    expect(await proofAt(REST_DOMAIN)).toEqual([]);
    expect(await verifiedList()).not.toContain(REST_DOMAIN);
  });

  it("REST: with the zone's key the record is published, read from the zone, and the answer is verified at once", async () => {
    const id = await connection(bind.key.secret);
    const proved = await verify(REST_DOMAIN, { connection_id: id });
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    expect(proved.body).toMatchObject({
      domain: REST_DOMAIN,
      verified: true,
      verified_at: expect.any(String),
      record: { name: `_inbox-verification.${REST_DOMAIN}`, type: 'TXT', value: `inbox-verification=${token}` },
    });
    expect(proved.body.detail).toContain(`published through DNS connection ${id}`);
    expect(await proofAt(REST_DOMAIN)).toEqual([`inbox-verification=${token}`]);
    // The resolver never saw it: the proof was read from the zone's own server.
    expect(await askBind(h.dns.port, `_inbox-verification.${REST_DOMAIN}`, 'TXT')).toEqual([]);
    expect(await verifiedList()).toContain(REST_DOMAIN);
    // Asked again, with or without the connection, the domain is already proved and nothing more is written.
    const again = await verify(REST_DOMAIN, { connection_id: id });
    expect(again.body).toMatchObject({ verified: true, verified_at: proved.body.verified_at });
    expect(await proofAt(REST_DOMAIN)).toEqual([`inbox-verification=${token}`]);
  });

  it('GraphQL: verifyDomain(connectionId:) proves the domain at once', async () => {
    const id = await connection(bind.key.secret);
    const answer = await graphql(
      h.service,
      'mutation($d: String!, $c: Int) { verifyDomain(domain: $d, connectionId: $c) { domain verified verifiedAt detail record { name value } } }',
      { d: GQL_DOMAIN, c: id },
      key,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.verifyDomain).toMatchObject({ domain: GQL_DOMAIN, verified: true, verifiedAt: expect.any(String) });
    expect(await proofAt(GQL_DOMAIN)).toEqual([`inbox-verification=${token}`]);
    const unknown = await graphql(h.service, 'mutation($d: String!) { verifyDomain(domain: $d, connectionId: 999999) { verified } }', { d: GQL_DOMAIN }, key);
    expect(unknown.body.errors?.[0]?.extensions).toMatchObject({ code: 'dns_connection_not_found' });
  });

  it('MCP: verify_domain with connection_id proves the domain at once', async () => {
    const id = await connection(bind.key.secret);
    const tool = await mcp.callTool({ name: 'verify_domain', arguments: { domain: MCP_DOMAIN, connection_id: id } });
    expect(tool.isError, JSON.stringify(tool.content)).toBeFalsy();
    const answer = JSON.parse((tool.content as { text: string }[])[0]!.text);
    expect(answer).toMatchObject({ domain: MCP_DOMAIN, verified: true, verified_at: expect.any(String) });
    expect(await proofAt(MCP_DOMAIN)).toEqual([`inbox-verification=${token}`]);
    expect(await verifiedList()).toEqual(expect.arrayContaining([REST_DOMAIN, GQL_DOMAIN, MCP_DOMAIN]));
  });

  it('CLI: svc verify DOMAIN --connection ID exits 0 with the domain proved', async () => {
    const before = await svc(['verify', CLI_DOMAIN]);
    expect(before.code, before.stderr).toBe(1);
    expect(before.stderr).toContain(`inbox-verification=${token}`);
    const id = await connection(bind.key.secret);
    const proved = await svc(['verify', CLI_DOMAIN, '--connection', String(id)]);
    expect(proved.code, proved.stderr).toBe(0);
    expect(JSON.parse(proved.stdout)).toMatchObject({ domain: CLI_DOMAIN, verified: true });
    expect(await proofAt(CLI_DOMAIN)).toEqual([`inbox-verification=${token}`]);
  });
});
