import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resolver } from 'node:dns/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { graphql } from '../support/test-service.js';
import { startBindServer, type BindServer } from '../support/bind-server.js';
import { GOOGLE_MX_HOSTS, GOOGLE_SPF_FLAT, googleZoneLines } from '../support/google-mail-zone.js';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';
import { waitFor } from '../support/wait-for.js';
import { dmarcFixture, gzip } from '../support/report-files.js';
import { DEMO_VERIFICATION_TOKEN, verificationValue } from '../../resolvers/orders/verification-record.js';

/**
 * The DMARC ramp through REST, GraphQL and MCP against a real BIND taking signed updates: readiness
 * from uploaded (authenticated) aggregate reports, an advance that raises p= and keeps every tag and
 * report address, the journal's revert putting the ramp back a step, a failing sender of the
 * customer's own blocking the ramp, and the automatic ramp advancing and undoing on its own.
 */
const [ready, ownFails, automatic] = [FREE_DOMAINS[20]!, FREE_DOMAINS[21]!, FREE_DOMAINS[22]!];
const ALL = [ready, ownFails, automatic];
const proof = `_inbox-verification IN TXT "${verificationValue(DEMO_VERIFICATION_TOKEN)}"`;
/** The customer's own DMARC: monitoring, their own report address, failure reports. */
const dmarc = (domain: string) => `_dmarc 1200 IN TXT "v=DMARC1; p=none; rua=mailto:agg@${domain}; fo=1"`;
/** SPF that authorizes 203.0.113.77: the address google.xml reports 3 failing messages from. */
const spfWithOwnSender = '@ 900 IN TXT "v=spf1 ip4:203.0.113.77 include:_spf.google.com ~all"';

let h: OrderingHarness;
let bind: BindServer;
let mcp: Client;
let connectionId: number;

const day = (daysAgo: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - daysAgo));

async function upload(body: Buffer): Promise<void> {
  const response = await h.service.api('/v1/reports', { method: 'POST', headers: { 'content-type': 'application/gzip' }, body: new Uint8Array(body) });
  if (response.status !== 200) throw new Error(`the upload answered ${response.status}: ${await response.text()}`);
}

/** Reports of `fixture` for `domain`, one a day for `days` days ending yesterday. */
async function uploadDays(fixture: string, domain: string, days: number, offset = 1): Promise<void> {
  for (let i = offset; i < offset + days; i += 1) await upload(gzip(dmarcFixture(fixture, { domain, begin: day(i), reportId: `${domain}-${fixture}-${i}` })));
}

const ramp = (domain: string) => h.service.api(`/v1/domains/${domain}/dmarc-ramp`).then(async (r) => ({ status: r.status, body: await r.json() }));
const advance = (domain: string, body: unknown) => postJson(h.service, `/v1/domains/${domain}/dmarc-ramp/advance`, body);

/** The DMARC TXT as BIND serves it now (the test's own look, not the service's). */
async function servedDmarc(domain: string): Promise<string[]> {
  const resolver = new Resolver();
  resolver.setServers([`127.0.0.1:${bind.port}`]);
  return (await resolver.resolveTxt(`_dmarc.${domain}`)).map((parts) => parts.join(''));
}

function toolAnswer(result: Awaited<ReturnType<Client['callTool']>>): any {
  const first: unknown = Array.isArray(result.content) ? result.content[0] : undefined;
  return JSON.parse(first && typeof first === 'object' && 'text' in first && typeof first.text === 'string' ? first.text : 'null');
}

beforeAll(async () => {
  bind = await startBindServer({
    resolver: true,
    zones: [
      { name: ready, records: [proof, dmarc(ready), '@ 900 IN TXT "v=spf1 include:_spf.google.com ~all"'] },
      { name: ownFails, records: [proof, dmarc(ownFails), spfWithOwnSender] },
      { name: automatic, records: [proof, dmarc(automatic), spfWithOwnSender] },
      { name: 'google.com', records: googleZoneLines([...GOOGLE_SPF_FLAT, ...GOOGLE_MX_HOSTS]) },
    ],
  });
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    env: {
      DNS_SERVERS: `127.0.0.1:${bind.port}`,
      DNS_AUTHORITATIVE_PORT: String(bind.port),
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      JOBS: 'on',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '300',
      REPORTS_DOMAIN: 'reports.example.net',
      FORWARD_TARGET: '192.0.2.80',
      DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
      DNS_PUBLISH_TIMEOUT_MS: '3000',
      ALERT_OUTBOX_DIR: `/tmp/outbox-ramp-${process.pid}`,
    },
  });
  await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
  const placed = await postJson(h.service, '/v1/orders', orderBody(ALL, 1), { headers: { 'idempotency-key': 'dmarc-ramp-0001' } });
  if (placed.status !== 200) throw new Error(`the order was refused: ${JSON.stringify(placed.body)}`);
  await waitFor('every domain built and waiting for its DNS', async () => {
    const rows = await h.service.services.db.selectFrom('domains').select('build_state').where('domain', 'in', ALL).execute();
    return rows.length === ALL.length && rows.every((r) => r.build_state === 'waiting_for_dns') ? rows : null;
  });
  const created = await postJson(h.service, '/v1/dns-connections', {
    kind: 'rfc2136',
    server: '127.0.0.1',
    port: bind.port,
    key_name: bind.key.name,
    algorithm: bind.key.algorithm,
    secret: bind.key.secret,
  });
  if (created.status !== 200) throw new Error(`the connection was refused: ${JSON.stringify(created.body)}`);
  connectionId = created.body.connection_id;
  for (const domain of ALL) {
    const applied = await postJson(h.service, `/v1/domains/${domain}/setup/apply`, { connection_id: connectionId, dry_run: false });
    if (applied.status !== 200) throw new Error(`the apply of ${domain} was refused: ${JSON.stringify(applied.body)}`);
  }
  await uploadDays('yahoo.xml', ready, 14);
  await uploadDays('google.xml', ownFails, 14);
  mcp = new Client({ name: 'ramp-test', version: '1' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${h.service.demo.key}` } } }),
  );
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await h?.close();
  await bind?.stop();
});

describe('the DMARC ramp', () => {
  it('reads the step from the zone and judges readiness from 14 days of reports, all passing', async () => {
    const answer = await ramp(ready);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({
      domain: ready,
      step: 'none',
      record: `v=DMARC1; p=none; rua=mailto:agg@${ready},mailto:dmarc@reports.example.net; fo=1`,
      next_step: 'quarantine_25',
      ready: true,
      blocked_by: null,
      failing_sources: [],
      auto_advance: false,
      connection_id: connectionId,
      revert_offered: null,
      timeline: [],
    });
    expect(answer.body.window).toMatchObject({ days: 14, messages: 14 * 25, passed: 14 * 25, pass_rate: 100 });
  });

  it("a failing sender the domain's SPF authorizes blocks the next step, and the advance refuses without writing", async () => {
    const answer = await ramp(ownFails);
    expect(answer.body.ready).toBe(false);
    expect(answer.body.failing_sources).toEqual([{ source_ip: '203.0.113.77', ptr: null, service: null, failed: 14 * 3, own_sender: true }]);
    expect(answer.body.blocked_by).toContain('203.0.113.77');
    expect(answer.body.blocked_by).toContain('fails DMARC');
    const before = await servedDmarc(ownFails);
    const refused = await advance(ownFails, { connection_id: connectionId, dry_run: false });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ramp_not_ready');
    expect(refused.body.detail).toContain('Nothing was changed');
    expect(await servedDmarc(ownFails)).toEqual(before);
  });

  it('a dry run shows the raised record and writes nothing; the advance publishes it, journaled, and says so by event', async () => {
    // The setup's apply published the merged record with the setup's TTL (3600); the step keeps it.
    const before = await servedDmarc(ready);
    const dry = await advance(ready, { connection_id: connectionId, dry_run: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const raised = `v=DMARC1; p=quarantine; pct=25; rua=mailto:agg@${ready},mailto:dmarc@reports.example.net; fo=1`;
    expect(dry.body).toMatchObject({ dry_run: true, from_step: 'none', to_step: 'quarantine_25', record_after: raised, apply_id: null, step_id: null });
    expect(dry.body.changes).toEqual([
      {
        action: 'replace',
        record: { type: 'TXT', name: `_dmarc.${ready}`, value: raised, ttl: 3600, priority: null },
        replaces: [{ type: 'TXT', name: `_dmarc.${ready}`, value: before[0], ttl: 3600, priority: null }],
      },
    ]);
    expect(await servedDmarc(ready)).toEqual(before);

    const done = await advance(ready, { connection_id: connectionId, dry_run: false });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.apply_id).toEqual(expect.any(Number));
    expect(await servedDmarc(ready)).toEqual([raised]);
    const after = await ramp(ready);
    expect(after.body).toMatchObject({ step: 'quarantine_25', next_step: 'quarantine', ready: false, record: raised });
    expect(after.body.blocked_by).toContain('needs 14');
    expect(after.body.timeline).toEqual([
      expect.objectContaining({
        kind: 'advanced',
        from_step: 'none',
        to_step: 'quarantine_25',
        apply_id: done.body.apply_id,
        automatic: false,
        record_after: raised,
      }),
    ]);
    const events = await h.service.api('/v1/events?limit=100').then((r) => r.json());
    expect(events.data.some((e: any) => e.type === 'domain.dmarc_advanced' && e.data.domain === ready && e.data.to_step === 'quarantine_25')).toBe(true);
  });

  it('GraphQL and MCP read the same ramp; MCP refuses an advance that is not ready, in a sentence', async () => {
    const gql = await graphql(h.service, `query($d: String!) { dmarcRamp(domain: $d) { step nextStep ready timeline { kind toStep } } }`, { d: ready });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data?.dmarcRamp).toEqual({
      step: 'quarantine_25',
      nextStep: 'quarantine',
      ready: false,
      timeline: [{ kind: 'advanced', toStep: 'quarantine_25' }],
    });
    const read = toolAnswer(await mcp.callTool({ name: 'get_dmarc_ramp', arguments: { domain: ready } }));
    expect(read).toMatchObject({ domain: ready, step: 'quarantine_25' });
    const refused = await mcp.callTool({ name: 'advance_dmarc_ramp', arguments: { domain: ready, connection_id: connectionId, dry_run: true } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('needs 14');
  });

  it("reverting the advance's journal entry puts the record and the ramp back a step, with domain.dmarc_reverted", async () => {
    const { body } = await ramp(ready);
    const applyId = body.timeline[0].apply_id;
    const reverted = await postJson(h.service, `/v1/domains/${ready}/setup/applies/${applyId}/revert`, { dry_run: false });
    expect(reverted.status, JSON.stringify(reverted.body)).toBe(200);
    expect(await servedDmarc(ready)).toEqual([`v=DMARC1; p=none; rua=mailto:agg@${ready},mailto:dmarc@reports.example.net; fo=1`]);
    const after = await ramp(ready);
    expect(after.body.step).toBe('none');
    expect(after.body.timeline.map((e: any) => [e.kind, e.from_step, e.to_step])).toEqual([
      ['advanced', 'none', 'quarantine_25'],
      ['reverted', 'quarantine_25', 'none'],
    ]);
    const events = await h.service.api('/v1/events?limit=100').then((r) => r.json());
    expect(events.data.some((e: any) => e.type === 'domain.dmarc_reverted' && e.data.domain === ready)).toBe(true);
  });

  it('the automatic ramp advances a ready domain on its own, and undoes it when an own sender fails afterwards', async () => {
    const set = await postJson(h.service, '/v1/dmarc-ramp/settings', { auto_advance: true }, { method: 'PUT' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ auto_advance: true });
    // Fourteen clean days for the third domain; the other two are not ready (one just reverted, one blocked).
    await uploadDays('yahoo.xml', automatic, 14);
    await h.service.services.db.updateTable('accounts').set({ dmarc_ramp_run_on: null }).where('id', '=', h.service.demo.accountId).execute();
    const advanced = await waitFor('the automatic advance', async () => {
      const { body } = await ramp(automatic);
      return body.timeline.length === 1 ? body : null;
    });
    expect(advanced.timeline[0]).toMatchObject({ kind: 'advanced', to_step: 'quarantine_25', automatic: true });
    expect(await servedDmarc(automatic)).toEqual([`v=DMARC1; p=quarantine; pct=25; rua=mailto:agg@${automatic},mailto:dmarc@reports.example.net; fo=1`]);
    expect((await ramp(ownFails)).body.timeline).toEqual([]);

    // Today's report: the address the SPF authorizes fails DMARC since the step. The next daily run undoes it.
    await upload(gzip(dmarcFixture('google.xml', { domain: automatic, begin: day(0), reportId: `${automatic}-after` })));
    expect((await ramp(automatic)).body.revert_offered).toMatchObject({ apply_id: advanced.timeline[0].apply_id });
    await h.service.services.db.updateTable('accounts').set({ dmarc_ramp_run_on: null }).where('id', '=', h.service.demo.accountId).execute();
    const undone = await waitFor('the automatic revert', async () => {
      const { body } = await ramp(automatic);
      return body.timeline.length === 2 ? body : null;
    });
    expect(undone.timeline[1]).toMatchObject({ kind: 'reverted', from_step: 'quarantine_25', to_step: 'none', automatic: true });
    expect(undone.timeline[1].reason).toContain('203.0.113.77');
    expect(await servedDmarc(automatic)).toEqual([`v=DMARC1; p=none; rua=mailto:agg@${automatic},mailto:dmarc@reports.example.net; fo=1`]);
  });
});
