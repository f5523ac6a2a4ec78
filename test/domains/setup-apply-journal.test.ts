import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { fileURLToPath } from 'node:url';
import dnsPacket from 'dns-packet';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { graphql } from '../support/test-service.js';
import { startBindServer, type BindServer } from '../support/bind-server.js';
import { GOOGLE_MX_HOSTS, GOOGLE_SPF_FLAT, googleZoneLines } from '../support/google-mail-zone.js';
import { startFakeCloudflare, type FakeCloudflare } from '../support/fake-cloudflare.js';
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
import { insertSetupApply } from '../../db/setup-applies.js';

/**
 * The apply journal and its undo through every door, against a real BIND that takes RFC 2136
 * updates signed with TSIG (and the local fake of Cloudflare's API): an apply is journaled with
 * the RRsets it touched; a revert puts the zone back byte for byte (every record, TTL and TXT string
 * of the names the setup touches, read from BIND itself), once; a zone changed by hand since the
 * apply (nsupdate) refuses the revert with a conflict and nothing is written.
 */
const SVC = fileURLToPath(new URL('../../cli/svc.py', import.meta.url));
const NSUPDATE = '/usr/bin/nsupdate';
const [journaled, handEdited, onCloudflare] = [FREE_DOMAINS[35]!, FREE_DOMAINS[36]!, FREE_DOMAINS[37]!];
const ALL = [journaled, handEdited, onCloudflare];
const proof = `_inbox-verification IN TXT "${verificationValue(DEMO_VERIFICATION_TOKEN)}"`;
/** A zone that already holds another provider's mail records, each RRset with a TTL of its own. */
const customerRecords = [
  proof,
  '@ 600 IN MX 10 mx1.other-provider.test.',
  '@ 600 IN MX 20 mx2.other-provider.test.',
  '@ 900 IN TXT "v=spf1 ip4:192.0.2.25 " "~all"',
  '@ 900 IN TXT "keep=this"',
  '_dmarc 1200 IN TXT "v=DMARC1; p=none"',
  'www 300 IN A 192.0.2.10',
];

let h: OrderingHarness;
let bind: BindServer;
let cloudflare: FakeCloudflare;
let mcp: Client;

/**
 * Every RRset at the names an email setup touches, as BIND serves them now: name, TTL, type and the
 * exact data (each TXT string in hex), sorted. Asked over UDP with EDNS (a 2048-bit DKIM key's
 * record is longer than 512 bytes), without TSIG: the test's own look at the zone.
 */
async function zoneBytes(domain: string): Promise<string[]> {
  const names = [domain, `_dmarc.${domain}`, `google._domainkey.${domain}`, `www.${domain}`];
  const lines: string[] = [];
  for (const name of names)
    for (const type of ['MX', 'TXT', 'A', 'AAAA', 'CNAME'] as const) {
      const socket = createSocket('udp4');
      try {
        const answer = await new Promise<Buffer>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('BIND did not answer')), 3000);
          socket.once('message', (message) => {
            clearTimeout(timer);
            resolve(message);
          });
          socket.send(
            dnsPacket.encode({
              type: 'query',
              id: 9,
              questions: [{ type, name }],
              additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 4096, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }],
            }),
            bind.port,
            '127.0.0.1',
          );
        });
        for (const a of dnsPacket.decode(answer).answers ?? []) {
          if (a.type !== type) continue;
          const data =
            a.type === 'TXT' ? (Array.isArray(a.data) ? a.data : [a.data]).map((c) => Buffer.from(c).toString('hex')).join(' ') : JSON.stringify(a.data);
          lines.push(`${a.name} ${a.ttl} ${a.type} ${data}`);
        }
      } finally {
        socket.close();
      }
    }
  return lines.sort();
}

/** Changes the zone with BIND's own nsupdate, signed with the zone's key: a hand on the DNS that is not the service's. */
async function nsupdate(zone: string, lines: readonly string[]): Promise<void> {
  const child = spawn(NSUPDATE, ['-y', `${bind.key.algorithm}:${bind.key.name}:${bind.key.secret}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin.end([`server 127.0.0.1 ${bind.port}`, `zone ${zone}`, ...lines, 'send', ''].join('\n'));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`nsupdate failed (${code}): ${err}`);
}

async function connection(body: Record<string, unknown>): Promise<number> {
  const created = await postJson(h.service, '/v1/dns-connections', body);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.connection_id;
}
const bindConnection = () =>
  connection({ kind: 'rfc2136', server: '127.0.0.1', port: bind.port, key_name: bind.key.name, algorithm: bind.key.algorithm, secret: bind.key.secret });
const apply = (domain: string, body: unknown) => postJson(h.service, `/v1/domains/${domain}/setup/apply`, body);
const revert = (domain: string, applyId: number, body: unknown, key?: string) =>
  postJson(h.service, `/v1/domains/${domain}/setup/applies/${applyId}/revert`, body, key ? { key } : {});
const applies = (domain: string, query = '') =>
  h.service.api(`/v1/domains/${domain}/setup/applies${query}`).then(async (r) => ({ status: r.status, body: await r.json() }));

function toolAnswer(result: Awaited<ReturnType<Client['callTool']>>): any {
  const first: unknown = Array.isArray(result.content) ? result.content[0] : undefined;
  return JSON.parse(first && typeof first === 'object' && 'text' in first && typeof first.text === 'string' ? first.text : 'null');
}

function runSvc(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [SVC, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: h.service.apiUrl, SERVICE_API_KEY: h.service.demo.key },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  bind = await startBindServer({
    resolver: true,
    zones: [
      { name: journaled, records: customerRecords },
      { name: handEdited, records: customerRecords },
      { name: onCloudflare, records: [proof] },
      // Google's side as it works (SPF passes Google's sending address, the MX host resolves), so a published setup verifies.
      { name: 'google.com', records: googleZoneLines([...GOOGLE_SPF_FLAT, ...GOOGLE_MX_HOSTS]) },
    ],
  });
  cloudflare = await startFakeCloudflare([onCloudflare]);
  cloudflare.addRecord(onCloudflare, { name: onCloudflare, type: 'MX', content: 'mx.other.test', priority: 10, ttl: 1 });
  cloudflare.addRecord(onCloudflare, { name: onCloudflare, type: 'TXT', content: 'v=spf1 ip4:192.0.2.25 ~all', ttl: 600 });
  cloudflare.addRecord(onCloudflare, { name: onCloudflare, type: 'TXT', content: 'keep=this' });
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    env: {
      DNS_SERVERS: `127.0.0.1:${bind.port}`,
      // The setup reads the zone itself: its name server ns1.<domain> (127.0.0.1) on BIND's port.
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
      ALERT_OUTBOX_DIR: `/tmp/outbox-journal-${process.pid}`,
    },
  });
  await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
  const placed = await postJson(h.service, '/v1/orders', orderBody(ALL, 1), { headers: { 'idempotency-key': 'apply-journal-0001' } });
  if (placed.status !== 200) throw new Error(`the order was refused: ${JSON.stringify(placed.body)}`);
  await waitFor('every domain built and waiting for its DNS', async () => {
    const rows = await h.service.services.db.selectFrom('domains').select('build_state').where('domain', 'in', ALL).execute();
    return rows.length === ALL.length && rows.every((r) => r.build_state === 'waiting_for_dns') ? rows : null;
  });
  mcp = new Client({ name: 'journal-test', version: '1' });
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

describe('the journal of an RFC 2136 apply, and its revert (a real BIND)', () => {
  let applyId: number;
  /** The zone before anything was published to it. */
  let pristine: string[];

  it('an apply that writes is journaled with each RRset it touched, as BIND served it before and after', async () => {
    const id = await bindConnection();
    pristine = await zoneBytes(journaled);
    expect(pristine.length).toBeGreaterThan(5);
    expect((await applies(journaled)).body).toEqual({ data: [], has_more: false });
    const dry = await apply(journaled, { connection_id: id, dry_run: true });
    expect(dry.body.apply_id).toBeNull();
    expect((await applies(journaled)).body.data).toEqual([]);

    const applied = await apply(journaled, { connection_id: id, dry_run: false });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.changes.length).toBeGreaterThan(0);
    applyId = applied.body.apply_id;
    expect(applyId).toEqual(expect.any(Number));

    const listed = await applies(journaled);
    expect(listed.status).toBe(200);
    expect(listed.body.has_more).toBe(false);
    expect(listed.body.data).toHaveLength(1);
    const entry = listed.body.data[0];
    expect(entry).toMatchObject({ apply_id: applyId, kind: 'apply', connection_id: id, reverted_at: null, reverts_apply_id: null });
    expect(Date.parse(entry.applied_at)).not.toBeNaN();
    // The other provider's MX set, TTLs as BIND held them, replaced by ours.
    const mx = entry.changes.find((c: any) => c.type === 'MX');
    expect(mx.name).toBe(journaled);
    expect(mx.before).toEqual([
      { type: 'MX', name: journaled, value: 'mx1.other-provider.test', ttl: 600, priority: 10 },
      { type: 'MX', name: journaled, value: 'mx2.other-provider.test', ttl: 600, priority: 20 },
    ]);
    expect(mx.replaced).toEqual(mx.before);
    expect(mx.after.map((r: any) => r.value)).toEqual(['smtp.google.com']);
    expect(mx.added).toEqual(mx.after);
    // Every RRset the apply's answer names is in the journal.
    const journaledSets = new Set(entry.changes.map((c: any) => `${c.type} ${c.name}`));
    for (const c of applied.body.changes) expect(journaledSets).toContain(`${c.record.type} ${c.record.name}`);
  });

  it('a dry-run revert (REST) answers exactly what it would put back and changes nothing', async () => {
    const before = await zoneBytes(journaled);
    const dry = await revert(journaled, applyId, { dry_run: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ apply_id: applyId, dry_run: true, revert_apply_id: null, reverted_at: null, build_state: null, ready: null });
    const mx = dry.body.changes.find((c: any) => c.type === 'MX');
    expect(mx.after.map((r: any) => `${r.priority} ${r.value} ${r.ttl}`)).toEqual(['10 mx1.other-provider.test 600', '20 mx2.other-provider.test 600']);
    expect(mx.replaced.map((r: any) => r.value)).toEqual(['smtp.google.com']);
    expect(await zoneBytes(journaled)).toEqual(before);
    expect((await applies(journaled)).body.data[0].reverted_at).toBeNull();
  });

  it('the revert (REST) puts the zone back byte for byte, is journaled, and cannot be done twice', async () => {
    expect(await zoneBytes(journaled)).not.toEqual(pristine);
    const reverted = await revert(journaled, applyId, { dry_run: false });
    expect(reverted.status, JSON.stringify(reverted.body)).toBe(200);
    expect(reverted.body).toMatchObject({
      apply_id: applyId,
      dry_run: false,
      revert_apply_id: expect.any(Number),
      build_state: 'needs_attention',
      ready: false,
    });
    expect(await zoneBytes(journaled)).toEqual(pristine);

    const listed = (await applies(journaled)).body.data;
    expect(listed.map((e: any) => [e.kind, e.reverts_apply_id])).toEqual([
      ['revert', applyId],
      ['apply', null],
    ]);
    expect(listed[1].reverted_at).toBe(reverted.body.reverted_at);
    expect(listed[0].apply_id).toBe(reverted.body.revert_apply_id);

    const twice = await revert(journaled, applyId, { dry_run: false });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'already_reverted', detail: expect.stringContaining(`Apply ${applyId} of ${journaled} was already reverted`) });
    const ofRevert = await revert(journaled, reverted.body.revert_apply_id, { dry_run: true });
    expect(ofRevert.status).toBe(409);
    expect(ofRevert.body.code).toBe('not_an_apply');
    expect(await zoneBytes(journaled)).toEqual(pristine);
  });

  it('pages: limit 1 then starting_after the last apply_id; a cursor that is not one of the list is a 400', async () => {
    const first = await applies(journaled, '?limit=1');
    expect(first.body.data).toHaveLength(1);
    expect(first.body.has_more).toBe(true);
    const second = await applies(journaled, `?limit=1&starting_after=${first.body.data[0].apply_id}`);
    expect(second.body.data.map((e: any) => e.kind)).toEqual(['apply']);
    expect(second.body.has_more).toBe(false);
    const bad = await applies(journaled, '?starting_after=999999');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_starting_after');
  });

  it('an unknown apply is a 404; another account cannot read or revert the journal', async () => {
    const unknown = await revert(journaled, 999_999, { dry_run: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'apply_not_found', detail: expect.stringContaining(`GET /v1/domains/${journaled}/setup/applies`) });
    const other = await h.service.seedAccount();
    const theirs = await h.service.api(`/v1/domains/${journaled}/setup/applies`, { key: other.key });
    expect(theirs.status).toBe(404);
    expect((await revert(journaled, applyId, { dry_run: true }, other.key)).status).toBe(404);
    const missing = await revert(journaled, applyId, {});
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toContain('"dry_run"');
  });
});

describe('a zone changed by hand since the apply', () => {
  it('the revert (GraphQL) is refused with a conflict naming the RRset, and nothing is written; MCP says the same', async () => {
    const id = await bindConnection();
    const applied = await graphql(
      h.service,
      `mutation($d: String!, $c: Int!) { applyDomainSetup(domain: $d, connectionId: $c, dryRun: false) { applyId changes { action } } }`,
      { d: handEdited, c: id },
    );
    expect(applied.body.errors).toBeUndefined();
    const applyId: number = applied.body.data.applyDomainSetup.applyId;
    expect(applyId).toEqual(expect.any(Number));

    // The customer moves their mail by hand after the apply.
    await nsupdate(handEdited, [`update delete ${handEdited}. MX`, `update add ${handEdited}. 300 MX 5 mx.by-hand.test.`]);
    const changed = await zoneBytes(handEdited);

    const refused = await graphql(
      h.service,
      `mutation($d: String!, $a: Int!) { revertDomainSetupApply(domain: $d, applyId: $a, dryRun: false) { applyId revertedAt } }`,
      { d: handEdited, a: applyId },
    );
    expect(refused.body.data).toBeNull();
    const error = refused.body.errors?.[0];
    expect(error?.extensions).toMatchObject({ code: 'conflict', status: 409 });
    expect(error?.message).toMatch(
      new RegExp(`MX at ${handEdited.replaceAll('.', '\\.')} now holds 5 "mx\\.by-hand\\.test" \\(TTL 300\\) where the apply left 1 "smtp\\.google\\.com"`),
    );
    expect(error?.extensions.conflicts).toEqual([
      {
        name: handEdited,
        type: 'MX',
        left_by_apply: [{ type: 'MX', name: handEdited, value: 'smtp.google.com', ttl: 3600, priority: 1 }],
        now: [{ type: 'MX', name: handEdited, value: 'mx.by-hand.test', ttl: 300, priority: 5 }],
        changed_by_apply_id: null,
      },
    ]);
    expect(error?.message).toContain('Put those records back as the apply left them to revert it, or change them by hand.');
    expect(await zoneBytes(handEdited)).toEqual(changed);

    // A later apply that still stands and wrote the MX (journaled as such) is named as the change to revert first.
    const account = await h.service.services.db.selectFrom('domains').select('account_id').where('domain', '=', handEdited).executeTakeFirstOrThrow();
    const later = await insertSetupApply(h.service.services.db, {
      account_id: account.account_id,
      domain: handEdited,
      connection_id: id,
      kind: 'apply',
      reverts_apply_id: null,
      rrsets: JSON.stringify([
        { name: handEdited, type: 'MX', before: [], after: [{ type: 'MX', name: handEdited, value: 'mx.by-hand.test', ttl: 300, priority: 5 }] },
      ]),
    });
    // A dry run through MCP finds the same conflict; the apply stays revertible.
    const dry = await mcp.callTool({ name: 'revert_domain_setup_apply', arguments: { domain: handEdited, apply_id: applyId, dry_run: true } });
    expect(dry.isError).toBe(true);
    expect(JSON.stringify(dry.content)).toContain(`The zone changed since apply ${applyId}`);
    expect(JSON.stringify(dry.content)).toContain(`Apply ${later.id} changed them since: revert it first (newest first), then this one.`);
    const listed = (await applies(handEdited)).body.data;
    expect(listed.map((e: any) => [e.apply_id, e.reverted_at])).toEqual([
      [later.id, null],
      [applyId, null],
    ]);
    expect(await zoneBytes(handEdited)).toEqual(changed);
  });

  it('the MCP tools: revert is destructive with apply_id and dry_run required; the journal is read-only', async () => {
    const { tools } = await mcp.listTools();
    const revertTool = tools.find((t) => t.name === 'revert_domain_setup_apply');
    expect(revertTool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(revertTool?.inputSchema).toMatchObject({
      properties: { apply_id: { type: 'integer' }, dry_run: { type: 'boolean' } },
      required: expect.arrayContaining(['domain', 'apply_id', 'dry_run']),
    });
    const listTool = tools.find((t) => t.name === 'list_domain_setup_applies');
    expect(listTool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });
});

describe('the journal of a Cloudflare apply (the local fake of its API)', () => {
  const records = () =>
    cloudflare
      .records(onCloudflare)
      .map((r) => `${r.type} ${r.name} ${r.ttl} ${r.priority ?? ''} ${r.content}`)
      .sort();

  it('apply (MCP), list (MCP) and revert (MCP) put back every record with its TTL, an automatic TTL included', async () => {
    const id = await connection({ kind: 'cloudflare', api_token: cloudflare.token });
    const before = records();
    const applied = toolAnswer(await mcp.callTool({ name: 'apply_domain_setup', arguments: { domain: onCloudflare, connection_id: id, dry_run: false } }));
    expect(applied.apply_id, JSON.stringify(applied)).toEqual(expect.any(Number));
    expect(records()).toContain(`MX ${onCloudflare} 3600 1 smtp.google.com`);

    const listed = toolAnswer(await mcp.callTool({ name: 'list_domain_setup_applies', arguments: { domain: onCloudflare } }));
    expect(listed.has_more).toBe(false);
    expect(listed.data.map((e: any) => e.apply_id)).toEqual([applied.apply_id]);
    const mx = listed.data[0].changes.find((c: any) => c.type === 'MX');
    expect(mx.before).toEqual([{ type: 'MX', name: onCloudflare, value: 'mx.other.test', ttl: 1, priority: 10 }]);

    const reverted = toolAnswer(
      await mcp.callTool({ name: 'revert_domain_setup_apply', arguments: { domain: onCloudflare, apply_id: applied.apply_id, dry_run: false } }),
    );
    expect(reverted, JSON.stringify(reverted)).toMatchObject({ apply_id: applied.apply_id, dry_run: false, revert_apply_id: expect.any(Number) });
    expect(records()).toEqual(before);
  });
});

describe('svc setup-applies and setup-revert', () => {
  it('list the journal and revert an apply (dry run first), as REST answers', async () => {
    const id = await bindConnection();
    const applied = await apply(journaled, { connection_id: id, dry_run: false });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const applyId: number = applied.body.apply_id;
    const listed = await runSvc(['setup-applies', journaled, '--limit', '1']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ data: [{ apply_id: applyId, kind: 'apply', reverted_at: null }], has_more: true });
    const dry = await runSvc(['setup-revert', journaled, String(applyId), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ apply_id: applyId, dry_run: true });
    const done = await runSvc(['setup-revert', journaled, String(applyId)]);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ apply_id: applyId, dry_run: false });
    const again = await runSvc(['setup-revert', journaled, String(applyId)]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already reverted');
  });
});

describe('an apply whose connection was deleted', () => {
  it('is not reverted, with a 409 saying to put its records back by hand; nothing is written', async () => {
    const id = await bindConnection();
    const applied = await apply(journaled, { connection_id: id, dry_run: false });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const deleted = await h.service.api(`/v1/dns-connections/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    const zone = await zoneBytes(journaled);
    const refused = await revert(journaled, applied.body.apply_id, { dry_run: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'dns_connection_deleted',
      detail: expect.stringContaining(`made through DNS connection ${id}, which was deleted`),
    });
    expect(await zoneBytes(journaled)).toEqual(zone);
  });
});
