import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { graphql } from '../support/test-service.js';
import { askBind, startBindServer, type BindServer } from '../support/bind-server.js';
import { startFakeCloudflare, type FakeCloudflare } from '../support/fake-cloudflare.js';
import { startFailingResolver, type FailingResolver } from '../support/failing-resolver.js';
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
 * An apply never harms what a customer's zone holds. A proxy that can be made to fail (SERVFAIL,
 * REFUSED, no answer) stands in front of a real BIND: the service's resolver, the domains' name
 * servers (DNS_AUTHORITATIVE_PORT) and, for one connection, the RFC 2136 server the apply reads
 * the zone from and writes to (the Cloudflare fake can fail its reads too). A failed read anywhere
 * (the records being planned, through the connection; Google's include in the SPF tree, through
 * the resolver) writes nothing, whatever the door and dry run or not; two SPF records are combined in one order whatever order DNS answers them in; a p=reject
 * DMARC keeps its policy and the customer's report addresses; a CNAME at _dmarc is never written
 * over.
 */
const run = promisify(execFile);
const domain = (i: number): string => FREE_DOMAINS[i]!;
const [failing, googleFails, twoSpf, rejectDmarc, hosted, hostedOk, cfFailing, cfTwoSpf, cfStale, overTwo] = [
  domain(16),
  domain(17),
  domain(18),
  domain(19),
  domain(26),
  domain(27),
  domain(28),
  domain(29),
  domain(9),
  domain(8),
] as const;
const ALL = [failing, googleFails, twoSpf, rejectDmarc, hosted, hostedOk, cfFailing, cfTwoSpf, cfStale, overTwo];
const ON_CLOUDFLARE = [cfFailing, cfTwoSpf, cfStale];
const OURS = 'mailto:dmarc@reports.example.net';
const proof = `_inbox-verification IN TXT "${verificationValue(DEMO_VERIFICATION_TOKEN)}"`;
const customerSpf = 'v=spf1 include:spf.esp-a.test include:_spf.google.com ~all';
const customerDmarc = (d: string) => `v=DMARC1; p=reject; rua=mailto:agg@${d}`;
const strictDmarc = (d: string) => `v=DMARC1; p=reject; sp=quarantine; pct=50; adkim=s; aspf=s; fo=1; rua=mailto:agg@${d}; ruf=mailto:forensic@${d}`;
const twoRecords = ['v=spf1 ip4:192.0.2.10 ~all', 'v=spf1 include:spf.esp-a.test -all'];
// Sorted by text, every mechanism once, Google's include, then the most lenient all: the same whatever order DNS answers in.
const combined = 'v=spf1 include:spf.esp-a.test ip4:192.0.2.10 include:_spf.google.com ~all';

let h: OrderingHarness;
let bind: BindServer;
let resolver: FailingResolver;
let cloudflare: FakeCloudflare;
let mcp: Client;
let bindId: number;
/** The same BIND reached through the failing proxy: what the apply reads through it can fail. */
let proxiedId: number;
let cloudflareId: number;

const apply = (domain: string, connectionId: number, dryRun: boolean) =>
  postJson(h.service, `/v1/domains/${domain}/setup/apply`, { connection_id: connectionId, dry_run: dryRun });
const setupOf = async (domain: string) => (await h.service.api(`/v1/domains/${domain}/setup`)).json();
const recordOf = (setup: any, purpose: string) => setup.records.find((r: any) => r.purpose === purpose);

/** What BIND serves for a domain, read with dig: the SOA (its serial moves with any update) and every name and type a setup touches, each answer sorted. */
async function zoneDump(zone: string): Promise<string> {
  const asks: [string, string][] = [
    [zone, 'SOA'],
    [zone, 'MX'],
    [zone, 'TXT'],
    [zone, 'A'],
    [zone, 'AAAA'],
    [`_dmarc.${zone}`, 'TXT'],
    [`_dmarc.${zone}`, 'CNAME'],
    [`google._domainkey.${zone}`, 'TXT'],
  ];
  const parts = await Promise.all(
    asks.map(async ([name, type]) => {
      // dig prints ";; Warning: query response not set" (and no answer) when a stray datagram reaches its
      // socket first, which a loaded CI machine once showed: such a reading is no reading, so ask again.
      for (let attempt = 1; ; attempt++) {
        const { stdout } = await run('dig', ['+norecurse', '+nocmd', '+noall', '+answer', '-p', String(bind.port), '@127.0.0.1', name, type]);
        const lines = stdout.split('\n').filter(Boolean);
        if (!lines.some((l) => l.startsWith(';;')) || attempt === 3) return lines.sort().join('\n');
      }
    }),
  );
  return parts.join('\n');
}

const cloudflareRecords = (zone: string) =>
  cloudflare
    .records(zone)
    .map((r) => `${r.type} ${r.name} ${r.priority ?? ''} ${r.content}`)
    .sort();
const batches = () => cloudflare.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/dns_records/batch')).length;

function toolText(result: Awaited<ReturnType<Client['callTool']>>): string {
  const first: unknown = Array.isArray(result.content) ? result.content[0] : undefined;
  return first && typeof first === 'object' && 'text' in first && typeof first.text === 'string' ? first.text : '';
}

beforeAll(async () => {
  const customer = (d: string) => [proof, `@ IN TXT "${customerSpf}"`, `_dmarc IN TXT "${customerDmarc(d)}"`, '@ IN MX 1 smtp.google.com.'];
  bind = await startBindServer({
    resolver: true,
    zones: [
      { name: failing, records: customer(failing) },
      { name: googleFails, records: [proof, '@ IN TXT "v=spf1 include:spf.esp-a.test ~all"'] },
      { name: twoSpf, records: [proof, ...twoRecords.map((r) => `@ IN TXT "${r}"`)] },
      { name: rejectDmarc, records: [proof, `_dmarc IN TXT "${strictDmarc(rejectDmarc)}"`] },
      { name: hosted, records: [proof, `_dmarc IN CNAME ${hosted}.dmarc-host.test.`] },
      { name: hostedOk, records: [proof, `_dmarc IN CNAME ${hostedOk}.dmarc-host.test.`] },
      { name: cfFailing, records: customer(cfFailing) },
      { name: cfTwoSpf, records: [proof, ...twoRecords.map((r) => `@ IN TXT "${r}"`)] },
      // What the resolver sees of cfStale: the zone at Cloudflare holds another sender beside it (a stale answer).
      { name: cfStale, records: [proof, '@ IN TXT "v=spf1 include:spf.esp-a.test ~all"'] },
      {
        name: 'dmarc-host.test',
        records: [
          `${hosted} IN TXT "v=DMARC1; p=quarantine; rua=mailto:reports@dmarc-host.test"`,
          `${hostedOk} IN TXT "v=DMARC1; p=quarantine; rua=mailto:reports@dmarc-host.test,${OURS}"`,
        ],
      },
      // Two records of 4 and 3 lookups: combined with Google's 4, 11.
      {
        name: overTwo,
        records: [
          proof,
          '@ IN TXT "v=spf1 a:h0 a:h1 a:h2 a:h3 ~all"'.replace(/a:h(\d)/g, `a:h$1.${overTwo}`),
          '@ IN TXT "v=spf1 a:h4 a:h5 a:h6 -all"'.replace(/a:h(\d)/g, `a:h$1.${overTwo}`),
          ...[0, 1, 2, 3, 4, 5, 6].map((i) => `h${i} IN A 192.0.2.${i + 1}`),
        ],
      },
      { name: 'esp-a.test', records: ['spf IN TXT "v=spf1 ip4:198.51.100.0/24 ~all"'] },
      // Google's SPF as Google publishes it: an include chain, 4 lookups in all.
      {
        name: 'google.com',
        records: [
          '_spf IN TXT "v=spf1 include:_netblocks.google.com include:_netblocks2.google.com include:_netblocks3.google.com ~all"',
          '_netblocks IN TXT "v=spf1 ip4:35.190.247.0/24 ip4:64.233.160.0/19 ~all"',
          '_netblocks2 IN TXT "v=spf1 ip6:2001:4860:4000::/36 ~all"',
          '_netblocks3 IN TXT "v=spf1 ip4:172.217.0.0/19 ~all"',
          'smtp IN A 142.250.102.27',
        ],
      },
    ],
  });
  resolver = await startFailingResolver(bind.port);
  cloudflare = await startFakeCloudflare(ON_CLOUDFLARE);
  cloudflare.addRecord(cfFailing, { name: cfFailing, type: 'TXT', content: customerSpf });
  cloudflare.addRecord(cfFailing, { name: `_dmarc.${cfFailing}`, type: 'TXT', content: customerDmarc(cfFailing) });
  for (const r of twoRecords) cloudflare.addRecord(cfTwoSpf, { name: cfTwoSpf, type: 'TXT', content: r });
  cloudflare.addRecord(cfStale, { name: cfStale, type: 'TXT', content: 'v=spf1 include:spf.esp-a.test include:spf.esp-b.test ~all' });
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    env: {
      DNS_SERVERS: resolver.server,
      DNS_AUTHORITATIVE_PORT: resolver.server.split(':')[1]!,
      DNS_TIMEOUT_MS: '1000',
      DNS_TRIES: '2',
      JOBS: 'on',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      REPORTS_DOMAIN: 'reports.example.net',
      FORWARD_TARGET: '192.0.2.80',
      DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
      DNS_PUBLISH_TIMEOUT_MS: '3000',
      CLOUDFLARE_API_BASE: cloudflare.url,
      ALERT_OUTBOX_DIR: `/tmp/outbox-safe-publishing-${process.pid}`,
    },
  });
  await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
  const placed = await postJson(h.service, '/v1/orders', orderBody(ALL, 1), { headers: { 'idempotency-key': 'safe-publishing-0001' } });
  if (placed.status !== 200) throw new Error(`the order was refused: ${JSON.stringify(placed.body)}`);
  await waitFor('every domain built and waiting for its DNS', async () => {
    const rows = await h.service.services.db.selectFrom('domains').select('build_state').where('domain', 'in', ALL).execute();
    return rows.length === ALL.length && rows.every((r) => r.build_state === 'waiting_for_dns') ? rows : null;
  });
  const made = await postJson(h.service, '/v1/dns-connections', {
    kind: 'rfc2136',
    server: '127.0.0.1',
    port: bind.port,
    key_name: bind.key.name,
    algorithm: bind.key.algorithm,
    secret: bind.key.secret,
  });
  bindId = made.body.connection_id;
  const proxied = await postJson(h.service, '/v1/dns-connections', {
    kind: 'rfc2136',
    server: '127.0.0.1',
    port: Number(resolver.server.split(':')[1]),
    key_name: bind.key.name,
    algorithm: bind.key.algorithm,
    secret: bind.key.secret,
  });
  proxiedId = proxied.body.connection_id;
  cloudflareId = (await postJson(h.service, '/v1/dns-connections', { kind: 'cloudflare', api_token: cloudflare.token })).body.connection_id;
  mcp = new Client({ name: 'safe-publishing-test', version: '1' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${h.service.demo.key}` } } }),
  );
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await h?.close();
  await cloudflare?.close();
  await resolver?.close();
  await bind?.stop();
});

describe('no write from an unknown read (RFC 2136, a real BIND)', () => {
  it('a server answering SERVFAIL: REST apply is a 503 naming the lookup, and the zone is unchanged byte for byte', async () => {
    const before = await zoneDump(failing);
    // The dump is the zone: its SOA (whose serial any update moves) and the customer's records.
    expect(before).toMatch(new RegExp(`^${failing.replace(/\./g, '\\.')}\\.\\s+\\d+\\s+IN\\s+SOA\\s`, 'm'));
    expect(before).toContain(customerSpf);
    resolver.fail(failing, 'servfail');
    resolver.fail(`_dmarc.${failing}`, 'servfail');
    try {
      const refused = await apply(failing, proxiedId, false);
      expect(refused.status, JSON.stringify(refused.body)).toBe(503);
      expect(refused.body).toMatchObject({ code: 'dns_lookup_failed' });
      expect(refused.body.detail).toContain(`failed to look up TXT ${failing} (SERVFAIL)`);
      expect(refused.body.detail).toContain('Nothing was published');
      expect(refused.body.detail).toMatch(/apply again once the lookup succeeds/);
      // The setup says unknown, never missing, and never proposes the bare default over the customer's record.
      const spf = recordOf(await setupOf(failing), 'spf');
      expect(spf.status).toBe('unknown');
    } finally {
      resolver.heal();
    }
    expect(await zoneDump(failing)).toBe(before);
    expect(await askBind(bind.port, failing, 'TXT')).toContain(customerSpf);
  });

  it('a server answering REFUSED: a REST dry run refuses the same way; GraphQL carries the code and the 503', async () => {
    const before = await zoneDump(failing);
    resolver.fail(failing, 'refused', 'TXT');
    try {
      const dry = await apply(failing, proxiedId, true);
      expect(dry.status, JSON.stringify(dry.body)).toBe(503);
      expect(dry.body).toMatchObject({ code: 'dns_lookup_failed', detail: expect.stringContaining(`refused to look up TXT ${failing} (REFUSED)`) });
      const gql = await graphql(
        h.service,
        'mutation($d: String!, $c: Int!) { applyDomainSetup(domain: $d, connectionId: $c, dryRun: false) { domain changes { action } } }',
        { d: failing, c: proxiedId },
      );
      expect(gql.body.data?.applyDomainSetup ?? null).toBeNull();
      expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'dns_lookup_failed', status: 503, detail: expect.stringContaining('(REFUSED)') });
    } finally {
      resolver.heal();
    }
    expect(await zoneDump(failing)).toBe(before);
  });

  it('a server that never answers: the MCP tool refuses with the same sentence, nothing written', async () => {
    const before = await zoneDump(failing);
    resolver.fail(`_dmarc.${failing}`, 'timeout');
    try {
      const result = await mcp.callTool({ name: 'apply_domain_setup', arguments: { domain: failing, connection_id: proxiedId, dry_run: false } });
      expect(result.isError).toBe(true);
      expect(toolText(result)).toContain(`DMARC (TXT _dmarc.${failing})`);
      expect(toolText(result)).toContain('Nothing was published');
    } finally {
      resolver.heal();
    }
    expect(await zoneDump(failing)).toBe(before);
  });

  it('healed, the same apply keeps the customer’s SPF and p=reject DMARC (nothing to merge but our rua)', async () => {
    const applied = await apply(failing, bindId, false);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect((await askBind(bind.port, failing, 'TXT')).filter((t) => t.startsWith('v=spf1'))).toEqual([customerSpf]);
    expect(await askBind(bind.port, `_dmarc.${failing}`, 'TXT')).toEqual([`v=DMARC1; p=reject; rua=mailto:agg@${failing},${OURS}`]);
  });

  it('a failed lookup of _spf.google.com is never counted as 1: the apply refuses naming it, and nothing is written', async () => {
    const before = await zoneDump(googleFails);
    resolver.fail('_spf.google.com', 'servfail');
    try {
      const spf = recordOf(await setupOf(googleFails), 'spf');
      expect(spf.status).toBe('unknown');
      expect(spf.detail).toContain('_spf.google.com');
      const refused = await apply(googleFails, bindId, true);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({
        code: 'dns_lookup_failed',
        detail: expect.stringContaining('the TXT lookup for _spf.google.com failed (servfail)'),
      });
    } finally {
      resolver.heal();
    }
    expect(await zoneDump(googleFails)).toBe(before);
    // Healed, Google's include counts 4 (itself and its three netblocks) beside the customer's 1.
    const spf = recordOf(await setupOf(googleFails), 'spf');
    expect(spf).toMatchObject({ status: 'wrong', value: 'v=spf1 include:spf.esp-a.test include:_spf.google.com ~all' });
    expect(spf.detail).toContain('5 of 10 DNS lookups');
  });
});

describe('merges that keep everything of the customer’s', () => {
  it('two SPF records are one conflict combined in one order: the same value in setup, zone snippet, dry run and apply', async () => {
    const values = new Set<string>();
    // BIND rotates the order of the two records between answers; the proposal does not move.
    for (let i = 0; i < 4; i++) {
      const spf = recordOf(await setupOf(twoSpf), 'spf');
      expect(spf.status).toBe('conflict');
      expect([...spf.found].sort()).toEqual([...twoRecords].sort());
      values.add(spf.value);
    }
    expect([...values]).toEqual([combined]);
    const zone = await (await h.service.api(`/v1/domains/${twoSpf}/setup/zone`)).text();
    expect(zone).toContain(`"${combined}"`);
    const dry = await apply(twoSpf, bindId, true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const planned = dry.body.changes.find((c: any) => c.record.value.startsWith('v=spf1'));
    expect(planned.record.value).toBe(combined);
    expect(planned.replaces.map((r: any) => r.value).sort()).toEqual([...twoRecords].sort());
    const applied = await apply(twoSpf, bindId, false);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.changes).toEqual(dry.body.changes);
    expect((await askBind(bind.port, twoSpf, 'TXT')).filter((t) => t.startsWith('v=spf1'))).toEqual([combined]);
  });

  it('two SPF records whose combination would pass 10 lookups (Google’s include counted 4) are refused with spf_lookup_limit', async () => {
    const before = await zoneDump(overTwo);
    const spf = recordOf(await setupOf(overTwo), 'spf');
    expect(spf.status).toBe('conflict');
    expect(spf.detail).toContain('would make 11 DNS lookups');
    for (const dryRun of [true, false]) {
      const refused = await apply(overTwo, bindId, dryRun);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 'spf_lookup_limit',
        detail: expect.stringContaining(`The SPF record of ${overTwo} is not published for you`),
      });
    }
    expect(await zoneDump(overTwo)).toBe(before);
  });

  it('DMARC p=reject (GraphQL apply): policy, sp, pct, alignment, fo, ruf and the customer’s rua kept, our rua added', async () => {
    const result = await graphql(
      h.service,
      'mutation($d: String!, $c: Int!) { applyDomainSetup(domain: $d, connectionId: $c, dryRun: false) { changes { action record { name value } replaces { value } } } }',
      { d: rejectDmarc, c: bindId },
    );
    expect(result.body.errors).toBeUndefined();
    const merged = `v=DMARC1; p=reject; sp=quarantine; pct=50; adkim=s; aspf=s; fo=1; rua=mailto:agg@${rejectDmarc},${OURS}; ruf=mailto:forensic@${rejectDmarc}`;
    expect(result.body.data.applyDomainSetup.changes).toContainEqual({
      action: 'replace',
      record: { name: `_dmarc.${rejectDmarc}`, value: merged },
      replaces: [{ value: strictDmarc(rejectDmarc) }],
    });
    expect(await askBind(bind.port, `_dmarc.${rejectDmarc}`, 'TXT')).toEqual([merged]);
    expect(recordOf(await setupOf(rejectDmarc), 'dmarc')).toMatchObject({ status: 'verified', value: merged });
  });

  it('a CNAME at _dmarc is a hosted policy: delegated, never written over; verified through its target when that carries our rua', async () => {
    const dmarc = recordOf(await setupOf(hosted), 'dmarc');
    expect(dmarc).toMatchObject({ status: 'delegated', value: `v=DMARC1; p=quarantine; rua=mailto:reports@dmarc-host.test,${OURS}` });
    expect(dmarc.found[0]).toBe(`CNAME ${hosted}.dmarc-host.test`);
    expect(dmarc.detail).toContain(`Add ${OURS} to its rua= at ${hosted}.dmarc-host.test`);
    // The zone snippet does not offer a TXT to paste beside the alias.
    const snippet = await (await h.service.api(`/v1/domains/${hosted}/setup/zone`)).text();
    expect(snippet).toContain(`; _dmarc.${hosted}.\t3600\tIN\tTXT\t`);
    expect(snippet).not.toMatch(new RegExp(`^_dmarc\\.`, 'm'));
    const dry = await apply(hosted, bindId, true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.changes.some((c: any) => c.record.name === `_dmarc.${hosted}`)).toBe(false);
    const applied = await apply(hosted, bindId, false);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(await askBind(bind.port, `_dmarc.${hosted}`, 'CNAME')).toEqual([`${hosted}.dmarc-host.test`]);
    expect(await askBind(bind.port, `${hosted}.dmarc-host.test`, 'TXT')).toEqual(['v=DMARC1; p=quarantine; rua=mailto:reports@dmarc-host.test']);

    expect(recordOf(await setupOf(hostedOk), 'dmarc')).toMatchObject({ status: 'verified' });
  });
});

describe('the Cloudflare fake under the same rules', () => {
  it('Cloudflare failing the read writes nothing: 503 before any batch', async () => {
    const before = cloudflareRecords(cfFailing);
    const sent = batches();
    cloudflare.failReads(cfFailing);
    try {
      for (const dryRun of [true, false]) {
        const refused = await apply(cfFailing, cloudflareId, dryRun);
        expect(refused.status, JSON.stringify(refused.body)).toBe(503);
        expect(refused.body).toMatchObject({ code: 'dns_lookup_failed', detail: expect.stringContaining(`TXT ${cfFailing}`) });
      }
    } finally {
      cloudflare.failReads(null);
    }
    expect(cloudflareRecords(cfFailing)).toEqual(before);
    expect(batches()).toBe(sent);
  });

  it('two SPF records at Cloudflare become the one combined record, both replaced', async () => {
    const applied = await apply(cfTwoSpf, cloudflareId, false);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const spf = applied.body.changes.find((c: any) => c.record.value.startsWith('v=spf1'));
    expect(spf).toMatchObject({ action: 'replace', record: { value: combined } });
    expect(cloudflareRecords(cfTwoSpf).filter((r) => r.startsWith('TXT') && r.includes('v=spf1'))).toEqual([`TXT ${cfTwoSpf}  ${combined}`]);
  });

  it('a zone holding another SPF than the resolver has is read at Cloudflare: its sender is kept, not overwritten from the stale view', async () => {
    const held = 'v=spf1 include:spf.esp-a.test include:spf.esp-b.test ~all';
    const applied = await apply(cfStale, cloudflareId, false);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const spf = applied.body.changes.find((c: any) => c.record.value.startsWith('v=spf1'));
    const merged = 'v=spf1 include:spf.esp-a.test include:spf.esp-b.test include:_spf.google.com ~all';
    expect(spf).toMatchObject({ action: 'replace', record: { value: merged }, replaces: [{ value: held }] });
    expect(cloudflareRecords(cfStale).filter((r) => r.includes('v=spf1'))).toEqual([`TXT ${cfStale}  ${merged}`]);
  });
});
