import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { graphql } from '../support/test-service.js';
import { publicCheckRows } from '../../operations/public-check-rows.js';
import { loadDocument } from '../../operations/operation-document.js';
import { rowAnswer } from '../../operations/row-answer.js';
import { schema } from '../../schema/index.js';
import { askBind, startBindServer, type BindServer } from '../support/bind-server.js';
import { startFakeCloudflare, type FakeCloudflare } from '../support/fake-cloudflare.js';
import { GOOGLE_MX_HOSTS, GOOGLE_SPF_FLAT, googleZoneLines } from '../support/google-mail-zone.js';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';
import { waitFor } from '../jobs/webhook-receiver.js';
import { DEMO_VERIFICATION_TOKEN, verificationValue } from '../../resolvers/orders/verification-record.js';

/**
 * POST /v1/domains/{domain}/setup/apply through every door, with the service's own DNS lookups
 * answered by a real BIND that takes RFC 2136 updates signed with TSIG (and a local fake of
 * Cloudflare's API for the other kind): the dry run changes nothing, the apply makes the setup
 * verified and the domain live, twice is one change set, records that already verify (Google's
 * legacy MX) are left alone, an SPF merge past 10 lookups is refused, and so are an unverified
 * domain, another account's domain and a key the server refuses.
 */
const SVC = fileURLToPath(new URL('../../cli/svc.py', import.meta.url));
const [plain, legacy, pastLimit, onCloudflare, unverified] = [FREE_DOMAINS[30]!, FREE_DOMAINS[31]!, FREE_DOMAINS[32]!, FREE_DOMAINS[33]!, FREE_DOMAINS[34]!];
const ALL = [plain, legacy, pastLimit, onCloudflare, unverified];
const proof = `_inbox-verification IN TXT "${verificationValue(DEMO_VERIFICATION_TOKEN)}"`;
const LEGACY_MX = ['aspmx.l.google.com', 'alt1.aspmx.l.google.com', 'alt2.aspmx.l.google.com', 'alt3.aspmx.l.google.com', 'alt4.aspmx.l.google.com'];
const tenHosts = Array.from({ length: 10 }, (_, i) => `h${i}`);

let h: OrderingHarness;
let bind: BindServer;
let cloudflare: FakeCloudflare;
let mcp: Client;

async function connection(body: Record<string, unknown>): Promise<number> {
  const created = await postJson(h.service, '/v1/dns-connections', body);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.connection_id;
}
const bindConnection = (secret = bind.key.secret) =>
  connection({ kind: 'rfc2136', server: '127.0.0.1', port: bind.port, key_name: bind.key.name, algorithm: bind.key.algorithm, secret });
const apply = (domain: string, body: unknown, key?: string) => postJson(h.service, `/v1/domains/${domain}/setup/apply`, body, key ? { key } : {});

async function zoneOf(domain: string) {
  return {
    mx: (await askBind(bind.port, domain, 'MX')).sort(),
    txt: (await askBind(bind.port, domain, 'TXT')).sort(),
    dmarc: await askBind(bind.port, `_dmarc.${domain}`, 'TXT'),
    dkim: await askBind(bind.port, `google._domainkey.${domain}`, 'TXT'),
    a: await askBind(bind.port, domain, 'A'),
  };
}

function toolAnswer(result: Awaited<ReturnType<Client['callTool']>>): any {
  const first: unknown = Array.isArray(result.content) ? result.content[0] : undefined;
  return JSON.parse(first && typeof first === 'object' && 'text' in first && typeof first.text === 'string' ? first.text : 'null');
}

beforeAll(async () => {
  bind = await startBindServer({
    resolver: true,
    zones: [
      { name: plain, records: [proof, '@ IN TXT "keep=this"'] },
      { name: legacy, records: [proof, ...LEGACY_MX.map((mx, i) => `@ IN MX ${[1, 5, 5, 10, 10][i]} ${mx}.`), '@ IN TXT "v=spf1 ip4:192.0.2.25 -all"'] },
      {
        name: pastLimit,
        records: [
          proof,
          `@ IN TXT ${(`v=spf1 ${tenHosts.map((n) => `a:${n}.${pastLimit}`).join(' ')} ~all`.match(/.{1,200}/g) ?? []).map((c) => `"${c}"`).join(' ')}`,
          ...tenHosts.map((n) => `${n} IN A 192.0.2.7`),
        ],
      },
      { name: onCloudflare, records: [proof] },
      { name: unverified, records: [proof] },
      // Google's own SPF record, which the merged record includes (BIND here does not recurse).
      { name: 'google.com', records: googleZoneLines([...GOOGLE_SPF_FLAT, ...GOOGLE_MX_HOSTS]) },
    ],
  });
  cloudflare = await startFakeCloudflare([onCloudflare]);
  cloudflare.addRecord(onCloudflare, { name: onCloudflare, type: 'MX', content: 'mx.other.test', priority: 10 });
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    env: {
      DNS_SERVERS: `127.0.0.1:${bind.port}`,
      // The zones' own name servers (ns1.<zone>, 127.0.0.1) are asked directly on BIND's port.
      DNS_AUTHORITATIVE_PORT: String(bind.port),
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      JOBS: 'on',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '300',
      SETUP_RECHECK_FIRST_MS: '200',
      SETUP_RECHECK_MAX_MS: '400',
      REPORTS_DOMAIN: 'reports.example.net',
      FORWARD_TARGET: '192.0.2.80',
      DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
      DNS_PUBLISH_TIMEOUT_MS: '3000',
      CLOUDFLARE_API_BASE: cloudflare.url,
      ALERT_OUTBOX_DIR: `/tmp/outbox-apply-${process.pid}`,
      // The grade's registration part asks nobody outside.
      RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none',
      REGISTRATION_TIMEOUT_MS: '300',
    },
  });
  await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
  const placed = await postJson(h.service, '/v1/orders', orderBody(ALL, 1), { headers: { 'idempotency-key': 'apply-setup-0001' } });
  if (placed.status !== 200) throw new Error(`the order was refused: ${JSON.stringify(placed.body)}`);
  await waitFor('every domain built and waiting for its DNS', async () => {
    const rows = await h.service.services.db.selectFrom('domains').select('build_state').where('domain', 'in', ALL).execute();
    return rows.length === ALL.length && rows.every((r) => r.build_state === 'waiting_for_dns') ? rows : null;
  });
  mcp = new Client({ name: 'apply-test', version: '1' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${h.service.demo.key}` } } }),
  );
}, 90_000);
afterAll(async () => {
  await mcp?.close();
  await h?.close();
  await cloudflare?.close();
  await bind?.stop();
});

describe('publishing a domain’s setup through RFC 2136 (a real BIND)', () => {
  it('a key the server refuses is a 422 that names the key, never the secret, and changes nothing', async () => {
    const before = await zoneOf(plain);
    const wrongSecret = randomBytes(32).toString('base64');
    const id = await bindConnection(wrongSecret);
    const refused = await apply(plain, { connection_id: id, dry_run: false });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'tsig_key_refused',
      detail: expect.stringMatching(/refused the TSIG key "publish-key" \(BADSIG\).*Nothing was changed/),
    });
    expect(JSON.stringify(refused.body)).not.toContain(wrongSecret);
    expect(await zoneOf(plain)).toEqual(before);
    expect((await h.service.api(`/v1/domains/${plain}/setup`).then((r) => r.json())).build_state).toBe('waiting_for_dns');
  });

  it('a dry run (REST) shows every change and makes none', async () => {
    const id = await bindConnection();
    const before = await zoneOf(plain);
    const dry = await apply(plain, { connection_id: id, dry_run: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ domain: plain, connection_id: id, dry_run: true, build_state: 'waiting_for_dns', ready: false });
    expect(dry.body.changes.map((c: any) => [c.action, c.record.type, c.record.name, c.replaces.length])).toEqual([
      ['add', 'MX', plain, 0],
      ['add', 'TXT', plain, 0],
      ['add', 'TXT', `google._domainkey.${plain}`, 0],
      ['add', 'TXT', `_dmarc.${plain}`, 0],
      ['add', 'A', plain, 0],
    ]);
    expect(dry.body.changes[0].record).toEqual({ type: 'MX', name: plain, value: 'smtp.google.com', ttl: 3600, priority: 1 });
    expect(await zoneOf(plain)).toEqual(before);
  });

  it('apply (GraphQL): the setup reads all verified and the domain is live at once; the second apply (MCP) plans no change', async () => {
    const id = await bindConnection();
    const first = await graphql(
      h.service,
      `mutation($d: String!, $c: Int!, $dry: Boolean!) { applyDomainSetup(domain: $d, connectionId: $c, dryRun: $dry) {
         domain dryRun buildState ready cachesMayHoldUntil cacheNote changes { action record { type name value ttl priority } replaces { type value } } } }`,
      { d: plain, c: id, dry: false },
    );
    expect(first.body.errors).toBeUndefined();
    const applied = first.body.data.applyDomainSetup;
    expect(applied).toMatchObject({ domain: plain, dryRun: false, buildState: 'live', ready: true });
    expect(applied.changes.map((c: any) => c.action)).toEqual(['add', 'add', 'add', 'add', 'add']);
    // Every name had nothing: caches may hold "does not exist" for the zone's negative TTL (the SOA's 300 s).
    const holdFor = Date.parse(applied.cachesMayHoldUntil) - Date.now();
    expect(holdFor).toBeGreaterThan(200_000);
    expect(holdFor).toBeLessThanOrEqual(300_000);
    expect(applied.cacheNote).toContain(applied.cachesMayHoldUntil);
    const zone = await zoneOf(plain);
    expect(zone.mx).toEqual(['1 smtp.google.com']);
    expect(zone.txt).toEqual(['keep=this', 'v=spf1 include:_spf.google.com ~all']);
    expect(zone.dmarc).toEqual(['v=DMARC1; p=none; rua=mailto:dmarc@reports.example.net']);
    expect(zone.dkim[0]).toMatch(/^v=DKIM1; k=rsa; p=/);
    expect(zone.a).toEqual(['192.0.2.80']);

    const setup = await h.service.api(`/v1/domains/${plain}/setup`).then((r) => r.json());
    expect(setup).toMatchObject({ build_state: 'live', ready: true, reason: null });
    expect(new Set(setup.records.map((r: any) => r.status))).toEqual(new Set(['verified']));
    const live = await h.service.services.db.selectFrom('events').select('data').where('type', '=', 'domain.live').execute();
    expect(live.filter((e) => JSON.parse(e.data).domain === plain)).toHaveLength(1);

    const again = toolAnswer(await mcp.callTool({ name: 'apply_domain_setup', arguments: { domain: plain, connection_id: id, dry_run: false } }));
    expect(again).toMatchObject({ domain: plain, dry_run: false, changes: [], build_state: 'live', ready: true });
    expect(await zoneOf(plain)).toEqual(zone);
  });

  it('the domain just made live grades at least B on the public check-deliverability, through REST, GraphQL and MCP', async () => {
    expect((await h.service.api(`/v1/domains/${plain}/setup`).then((r) => r.json())).build_state).toBe('live');
    const row = publicCheckRows.find((r) => r.name === 'check_deliverability')!;
    const rest = await h.service.pub(`${row.path}?domain=${plain}`);
    expect(rest.status).toBe(200);
    const viaRest = await rest.json();
    const gql = await h.service.pub('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: loadDocument(row.document).source, variables: { domain: plain } }),
    });
    const gqlBody = await gql.json();
    expect(gqlBody.errors).toBeUndefined();
    const viaGraphql = rowAnswer(schema, row, gqlBody.data);
    const publicMcp = new Client({ name: 'grade-test', version: '1' });
    await publicMcp.connect(new StreamableHTTPClientTransport(new URL(`${h.service.publicUrl}/mcp`)));
    const tool = await publicMcp.callTool({ name: 'check_deliverability', arguments: { domain: plain } });
    await publicMcp.close();
    expect(tool.isError).toBeFalsy();
    const viaMcp = toolAnswer(tool);
    for (const answer of [viaRest, viaGraphql, viaMcp]) expect(['A', 'B'], JSON.stringify(answer.findings)).toContain(answer.grade);
  });

  it('the MCP tool is listed as destructive, with connection_id and dry_run required', async () => {
    const { tools } = await mcp.listTools();
    const tool = tools.find((t) => t.name === 'apply_domain_setup');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(tool?.inputSchema).toMatchObject({
      properties: { connection_id: { type: 'integer' }, dry_run: { type: 'boolean' } },
      required: expect.arrayContaining(['domain', 'connection_id', 'dry_run']),
    });
  });

  it("Google's legacy MX set verifies, so it is never replaced; the existing SPF is merged into one record", async () => {
    const id = await bindConnection();
    const applied = await apply(legacy, { connection_id: id, dry_run: false });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.changes.some((c: any) => c.record.type === 'MX')).toBe(false);
    const spf = applied.body.changes.find((c: any) => c.record.value.startsWith('v=spf1'));
    expect(spf).toMatchObject({
      action: 'replace',
      record: { value: 'v=spf1 ip4:192.0.2.25 include:_spf.google.com -all' },
      replaces: [{ value: 'v=spf1 ip4:192.0.2.25 -all' }],
    });
    const zone = await zoneOf(legacy);
    expect(zone.mx).toEqual([
      '1 aspmx.l.google.com',
      '10 alt3.aspmx.l.google.com',
      '10 alt4.aspmx.l.google.com',
      '5 alt1.aspmx.l.google.com',
      '5 alt2.aspmx.l.google.com',
    ]);
    expect(zone.txt.filter((t) => t.startsWith('v=spf1'))).toEqual(['v=spf1 ip4:192.0.2.25 include:_spf.google.com -all']);
    expect(applied.body).toMatchObject({ build_state: 'live', ready: true });
  });

  it('an SPF merge past 10 lookups is refused naming the record, and nothing is published', async () => {
    const id = await bindConnection();
    const before = await zoneOf(pastLimit);
    const refused = await apply(pastLimit, { connection_id: id, dry_run: false });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'spf_lookup_limit',
      detail: expect.stringContaining(`The SPF record of ${pastLimit} is not published for you`),
    });
    expect(refused.body.detail).toContain('would make 11 DNS lookups');
    expect(await zoneOf(pastLimit)).toEqual(before);
  });

  it('a domain not verified as yours is refused saying what to publish; another account’s domain is a 404', async () => {
    const id = await bindConnection();
    await h.service.services.db.deleteFrom('verified_domains').where('domain', '=', unverified).execute();
    const before = await zoneOf(unverified);
    const refused = await apply(unverified, { connection_id: id, dry_run: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'domain_not_verified', detail: expect.stringContaining(`${unverified} is not verified as yours`) });
    expect(refused.body.detail).toContain(`POST /v1/domains/${unverified}/verify`);
    expect(await zoneOf(unverified)).toEqual(before);

    const other = await h.service.seedAccount();
    const theirs = await postJson(
      h.service,
      '/v1/dns-connections',
      { kind: 'rfc2136', server: '127.0.0.1', port: bind.port, key_name: bind.key.name, secret: bind.key.secret },
      { key: other.key },
    );
    const foreign = await apply(plain, { connection_id: theirs.body.connection_id, dry_run: true }, other.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('domain_not_found');
    // Nor can a connection of another account be used on our domain.
    const notOurs = await apply(plain, { connection_id: theirs.body.connection_id, dry_run: true });
    expect(notOurs.status).toBe(404);
    const gql = await graphql(h.service, 'mutation { applyDomainSetup(domain: "not-ours.example", connectionId: 1, dryRun: true) { domain } }');
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'domain_not_found' });
  });

  it('bad input is a 4xx naming the field: dry_run missing or not a boolean, an unknown field, a number that is text', async () => {
    const missing = await apply(plain, { connection_id: 1 });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toContain('"dry_run"');
    const notBoolean = await apply(plain, { connection_id: 1, dry_run: 'yes' });
    expect(notBoolean.status).toBe(422);
    expect(notBoolean.body.detail).toContain('"dry_run" must be true or false');
    const unknown = await apply(plain, { connection_id: 1, dry_run: true, force: true });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toContain('"force"');
    const notNumber = await apply(plain, { connection_id: 'three', dry_run: true });
    expect(notNumber.status).toBe(422);
    expect(notNumber.body.detail).toContain('"connection_id" must be a whole number');
  });

  it('a domain whose records we published is refused on a new order as already ordered, not as another Google tenant', async () => {
    const mine = await postJson(h.service, '/v1/orders/preview', orderBody([plain], 1));
    expect(mine.status).toBe(400);
    const codes = mine.body.problems.flatMap((p: any) => p.issues.map((i: any) => i.code));
    expect(codes).toContain('domain_on_your_order');
    expect(codes).not.toContain('attached_to_google_tenant');
  });
});

describe('publishing through Cloudflare (the local fake of its API)', () => {
  it('dry run (MCP) changes nothing; apply replaces the other provider’s MX; the second apply makes no change', async () => {
    const id = await connection({ kind: 'cloudflare', api_token: cloudflare.token });
    const snapshot = () =>
      cloudflare
        .records(onCloudflare)
        .map((r) => `${r.type} ${r.name} ${r.priority ?? ''} ${r.content}`)
        .sort();
    const before = snapshot();
    const dry = toolAnswer(await mcp.callTool({ name: 'apply_domain_setup', arguments: { domain: onCloudflare, connection_id: id, dry_run: true } }));
    expect(dry.dry_run, JSON.stringify(dry)).toBe(true);
    expect(dry.changes[0]).toMatchObject({ action: 'replace', record: { type: 'MX', value: 'smtp.google.com' }, replaces: [{ value: 'mx.other.test' }] });
    expect(snapshot()).toEqual(before);
    const applied = await apply(onCloudflare, { connection_id: id, dry_run: false });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.changes).toEqual(dry.changes);
    expect(snapshot()).toContain(`MX ${onCloudflare} 1 smtp.google.com`);
    expect(snapshot().some((r) => r.includes('mx.other.test'))).toBe(false);
    const again = await apply(onCloudflare, { connection_id: id, dry_run: false });
    expect(again.body.changes).toEqual([]);
  });
});

describe('svc setup DOMAIN --apply', () => {
  it('--dry-run prints the changes; the exit status is 0', async () => {
    const id = await bindConnection();
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
        const child = spawn('python3', [SVC, ...args], {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: h.service.apiUrl, SERVICE_API_KEY: h.service.demo.key },
        });
        let stdout = '';
        child.stdout.on('data', (d) => {
          stdout += d;
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout }));
      });
    const shown = await run(['setup', plain, '--apply', String(id), '--dry-run']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ domain: plain, connection_id: id, dry_run: true, changes: [] });
    // The connection by its label, as people name it; an unknown label lists the ones there are.
    const label = `bind-${Math.random().toString(36).slice(2, 8)}`;
    const labelled = await connection({
      kind: 'rfc2136',
      label,
      server: '127.0.0.1',
      port: bind.port,
      key_name: bind.key.name,
      algorithm: bind.key.algorithm,
      secret: bind.key.secret,
    });
    const byLabel = await run(['setup', plain, '--apply', label.toUpperCase(), '--dry-run']);
    expect(byLabel.code).toBe(0);
    expect(JSON.parse(byLabel.stdout)).toMatchObject({ connection_id: labelled, dry_run: true });
    const unknown = await run(['setup', plain, '--apply', 'no-such-label', '--dry-run']);
    expect(unknown.code).not.toBe(0);
  });
});
