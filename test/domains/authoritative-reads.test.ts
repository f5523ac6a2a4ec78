import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { graphql } from '../support/test-service.js';
import { askBind, startBindServer, type BindServer } from '../support/bind-server.js';
import type { ZoneRecord } from '../support/dns-server.js';
import { GOOGLE_MX_HOSTS, GOOGLE_SPF_FLAT, googleZoneLines } from '../support/google-mail-zone.js';
import {
  FREE_DOMAINS,
  orderBody,
  orderingZone,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';
import { waitFor } from '../jobs/webhook-receiver.js';
import { DEMO_VERIFICATION_TOKEN, verificationValue } from '../../resolvers/orders/verification-record.js';

/**
 * The setup reads the zone itself, not a cache. The service's resolver is the in-process DNS server
 * holding a stale view of the domain (no MX, no SPF, nothing at _dmarc: the answers a cache kept
 * from before the publish, with a negative TTL of 600 s); the zone is a real BIND, reached as the
 * domain's name server (ns1.<domain>, 127.0.0.1, on DNS_AUTHORITATIVE_PORT) and through an RFC 2136
 * connection. Right after an apply the setup is live and verified while the resolver still says
 * missing, and the answer says until when caches may hold that; a dry run reads the server even
 * when there is nothing to change, so a wrong key fails it as it fails the apply; proof of control
 * is read from the zone too.
 */
const DOMAIN = FREE_DOMAINS[36]!;
const proof = `_inbox-verification IN TXT "${verificationValue(DEMO_VERIFICATION_TOKEN)}"`;

let h: OrderingHarness;
let bind: BindServer;
let mcp: Client;

/** The stale resolver: the ordering zone with the domain delegated to ns1.<domain> (127.0.0.1) and an SOA whose negative TTL is 600 s. */
function staleView(withProof: boolean): ZoneRecord[] {
  return [
    ...orderingZone().filter((r) => !(r.name === DOMAIN && r.type === 'NS') && (withProof || r.name !== `_inbox-verification.${DOMAIN}`)),
    { name: DOMAIN, type: 'NS', data: `ns1.${DOMAIN}` },
    { name: `ns1.${DOMAIN}`, type: 'A', data: '127.0.0.1' },
    {
      name: DOMAIN,
      type: 'SOA',
      ttl: 900,
      data: { mname: `ns1.${DOMAIN}`, rname: `hostmaster.${DOMAIN}`, serial: 1, refresh: 3600, retry: 600, expire: 86400, minimum: 600 },
    },
  ];
}

/** Changes the zone with BIND's own nsupdate: the test's hand on the DNS, not the service's. */
async function nsupdate(lines: readonly string[]): Promise<void> {
  const child = spawn('/usr/bin/nsupdate', ['-y', `${bind.key.algorithm}:${bind.key.name}:${bind.key.secret}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin.end([`server 127.0.0.1 ${bind.port}`, `zone ${DOMAIN}`, ...lines, 'send', ''].join('\n'));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`nsupdate failed (${code}): ${err}`);
}

async function connection(secret: string): Promise<number> {
  const created = await postJson(h.service, '/v1/dns-connections', {
    kind: 'rfc2136',
    server: '127.0.0.1',
    port: bind.port,
    key_name: bind.key.name,
    algorithm: bind.key.algorithm,
    secret,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.connection_id;
}
const apply = (body: unknown) => postJson(h.service, `/v1/domains/${DOMAIN}/setup/apply`, body);
const getSetup = async () => (await h.service.api(`/v1/domains/${DOMAIN}/setup`)).json() as Promise<any>;
const fromResolver = (name: string, type: 'MX' | 'TXT' | 'A') => askBind(h.dns.port, name, type);

beforeAll(async () => {
  bind = await startBindServer({
    zones: [
      { name: DOMAIN, records: [proof] },
      { name: 'google.com', records: googleZoneLines([...GOOGLE_SPF_FLAT, ...GOOGLE_MX_HOSTS]) },
    ],
  });
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    env: {
      DNS_AUTHORITATIVE_PORT: String(bind.port),
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      JOBS: 'on',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '300',
      SETUP_RECHECK_FIRST_MS: '60000',
      SETUP_RECHECK_MAX_MS: '60000',
      REPORTS_DOMAIN: 'reports.example.net',
      FORWARD_TARGET: '192.0.2.80',
      DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
      DNS_PUBLISH_TIMEOUT_MS: '3000',
      ALERT_OUTBOX_DIR: `/tmp/outbox-authoritative-${process.pid}`,
    },
  });
  h.dns.setRecords(staleView(true));
  await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
  const placed = await postJson(h.service, '/v1/orders', orderBody([DOMAIN], 1), { headers: { 'idempotency-key': 'authoritative-0001' } });
  if (placed.status !== 200) throw new Error(`the order was refused: ${JSON.stringify(placed.body)}`);
  await waitFor('the domain built and waiting for its DNS', async () => {
    const row = await h.service.services.db.selectFrom('domains').select('build_state').where('domain', '=', DOMAIN).executeTakeFirst();
    return row?.build_state === 'waiting_for_dns' ? row : null;
  });
  mcp = new Client({ name: 'authoritative-test', version: '1' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${h.service.demo.key}` } } }),
  );
}, 90_000);
afterAll(async () => {
  await mcp?.close();
  await h?.close();
  await bind?.stop();
});

describe('reading the zone itself', () => {
  it("the setup is read from the domain's name server, and says so", async () => {
    const setup = await getSetup();
    expect(setup).toMatchObject({ build_state: 'waiting_for_dns', ready: false, caches_may_hold_until: null, cache_note: null });
    expect(setup.read_from).toBe(`the name servers of ${DOMAIN} (ns1.${DOMAIN})`);
    expect(setup.records.find((r: any) => r.purpose === 'mx').status).toBe('missing');
  });

  it('a dry run with a wrong key fails with the same error as the apply, and nothing changes', async () => {
    const wrong = await connection(randomBytes(32).toString('base64'));
    const dry = await apply({ connection_id: wrong, dry_run: true });
    const real = await apply({ connection_id: wrong, dry_run: false });
    expect(dry.status).toBe(422);
    expect(dry.body).toMatchObject({ code: 'tsig_key_refused', detail: expect.stringMatching(/refused the TSIG key "publish-key" \(BADSIG\)/) });
    expect(real.status).toBe(422);
    expect(real.body.detail).toBe(dry.body.detail);
    expect(await askBind(bind.port, DOMAIN, 'MX')).toEqual([]);
  });

  it('a dry run against a server that does not serve the zone fails as the apply does, naming it', async () => {
    const other = await startBindServer({ zones: [{ name: 'unrelated.test', records: [] }] });
    try {
      const created = await postJson(h.service, '/v1/dns-connections', {
        kind: 'rfc2136',
        server: '127.0.0.1',
        port: other.port,
        key_name: other.key.name,
        algorithm: other.key.algorithm,
        secret: other.key.secret,
      });
      expect(created.status).toBe(200);
      const dry = await apply({ connection_id: created.body.connection_id, dry_run: true });
      const real = await apply({ connection_id: created.body.connection_id, dry_run: false });
      expect(dry.status).toBe(422);
      expect(dry.body).toMatchObject({ code: 'dns_zone_not_served', detail: expect.stringContaining(`does not answer for ${DOMAIN}`) });
      expect(real.status).toBe(422);
      expect(real.body.detail).toBe(dry.body.detail);
    } finally {
      await other.stop();
    }
  });

  it('right after an apply the setup is live and verified from the zone while the resolver still says missing, with until when caches may hold it (REST, GraphQL, MCP)', async () => {
    const id = await connection(bind.key.secret);
    const applied = await apply({ connection_id: id, dry_run: false });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ build_state: 'live', ready: true });
    expect(await askBind(bind.port, DOMAIN, 'MX')).toEqual(['1 smtp.google.com']);
    // The cache still holds "no MX" and "no DMARC".
    expect(await fromResolver(DOMAIN, 'MX')).toEqual([]);
    expect(await fromResolver(`_dmarc.${DOMAIN}`, 'TXT')).toEqual([]);

    const rest = await getSetup();
    expect(rest).toMatchObject({ build_state: 'live', ready: true, reason: null });
    expect(new Set(rest.records.map((r: any) => r.status))).toEqual(new Set(['verified']));
    // The resolver's negative answers live 600 s (the SOA it holds), so caches may answer "missing" until then.
    const holdFor = Date.parse(rest.caches_may_hold_until) - Date.now();
    expect(holdFor).toBeGreaterThan(500_000);
    expect(holdFor).toBeLessThanOrEqual(600_000);
    expect(rest.cache_note).toContain(`MX ${DOMAIN} (cached as missing)`);
    expect(rest.cache_note).toContain(rest.caches_may_hold_until);

    const gql = await graphql(h.service, 'query($d: String!) { domainSetup(domain: $d) { buildState ready readFrom cachesMayHoldUntil cacheNote } }', {
      d: DOMAIN,
    });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.domainSetup).toMatchObject({ buildState: 'live', ready: true, readFrom: rest.read_from, cachesMayHoldUntil: expect.any(String) });
    const tool = await mcp.callTool({ name: 'get_domain_setup', arguments: { domain: DOMAIN } });
    const first = (tool.content as { text: string }[])[0]!;
    expect(JSON.parse(first.text)).toMatchObject({
      build_state: 'live',
      ready: true,
      caches_may_hold_until: expect.any(String),
      cache_note: expect.any(String),
    });
    const stored = await h.service.services.db.selectFrom('domains').select('build_state').where('domain', '=', DOMAIN).executeTakeFirstOrThrow();
    expect(stored.build_state).toBe('live');
  });

  it('a dry run with nothing to change still reads the server: the right key answers no change, a wrong key fails it', async () => {
    const good = await connection(bind.key.secret);
    const dry = await apply({ connection_id: good, dry_run: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ changes: [], build_state: 'live', ready: true });
    const wrong = await connection(randomBytes(32).toString('base64'));
    const refused = await apply({ connection_id: wrong, dry_run: true });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('tsig_key_refused');
  });

  it('one read, one answer: the MX removed reads needs_attention and not ready at once, stored so; put back, live and ready', async () => {
    await nsupdate([`update delete ${DOMAIN}. MX`]);
    const broken = await getSetup();
    expect(broken).toMatchObject({ build_state: 'needs_attention', ready: false });
    expect(broken.reason).toContain(`MX (${DOMAIN}) is missing`);
    const stored = () => h.service.services.db.selectFrom('domains').select('build_state').where('domain', '=', DOMAIN).executeTakeFirstOrThrow();
    expect((await stored()).build_state).toBe('needs_attention');
    await nsupdate([`update add ${DOMAIN}. 3600 MX 1 smtp.google.com.`]);
    const back = await getSetup();
    expect(back).toMatchObject({ build_state: 'live', ready: true, reason: null });
    expect((await stored()).build_state).toBe('live');
  });

  it('proof of control is read from the zone: the resolver has no record, the zone has it, and the domain is verified', async () => {
    h.dns.setRecords(staleView(false));
    expect(await fromResolver(`_inbox-verification.${DOMAIN}`, 'TXT')).toEqual([]);
    await h.service.services.db.deleteFrom('verified_domains').where('domain', '=', DOMAIN).execute();
    const verified = await postJson(h.service, `/v1/domains/${DOMAIN}/verify`, {});
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({ domain: DOMAIN, verified: true });
  });
});
