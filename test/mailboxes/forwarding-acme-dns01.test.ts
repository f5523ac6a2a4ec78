import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { connect, type PeerCertificate } from 'node:tls';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { graphql, startTestService, type TestService } from '../support/test-service.js';
import { askBind, startBindServer, type BindServer } from '../support/bind-server.js';
import { GOOGLE_MX_HOSTS, GOOGLE_SPF_FLAT, googleZoneLines } from '../support/google-mail-zone.js';
import { freePort, pebbleInstalled, PEBBLE_PATH, startPebble, type PebbleServer } from '../support/pebble-server.js';
import { waitFor } from '../support/wait-for.js';
import { insertVerifiedDomains } from '../../db/verified-domains.js';
import { storeDkimKey } from '../../resolvers/domains/setup/dkim-keys.js';

/**
 * DNS-01 through the domain's DNS connection (ACME_DNS01=on), against pebble validating DNS-01 at a
 * real BIND (pebble's -dnsserver) that takes the connection's RFC 2136 updates signed with TSIG.
 * Pebble's HTTP-01 port is one nothing listens on, so a certificate can only come by DNS-01. The
 * customer applies the domain's setup through the connection (REST), which makes it live; the
 * sweep's job publishes `_acme-challenge` TXT through the same journaled apply, waits for the zone's
 * name server, lets pebble validate, and reverts the entry. The setup's forwarding line says HTTPS
 * is pending before and on after, through REST, GraphQL and MCP.
 */
const DOMAIN = 'acme-dns01.test';

let bind: BindServer;
let pebble: PebbleServer;
let service: TestService;
let mcp: Client;
let pebbleRoot: string;
let connectionId: number;

function handshake(servername: string, ca?: string): Promise<{ certificate: PeerCertificate; authorized: boolean }> {
  const url = new URL(service.forwardTlsUrl!);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), servername, rejectUnauthorized: false, ...(ca !== undefined && { ca }) }, () => {
      resolve({ certificate: socket.getPeerCertificate(), authorized: socket.authorized });
      socket.end();
    });
    socket.on('error', reject);
  });
}

const SETUP_QUERY = 'query ($domain: String!) { domainSetup(domain: $domain) { buildState records { purpose status detail } } }';

/** The forwarding line's sentence as each door answers it: REST, GraphQL and MCP must agree. */
async function forwardingLineEverywhere(): Promise<string> {
  const rest = await service.api(`/v1/domains/${DOMAIN}/setup`);
  expect(rest.status).toBe(200);
  const restLine = ((await rest.json()) as { records: { purpose: string; status: string; detail: string }[] }).records.find((r) => r.purpose === 'forwarding');
  const gql = await graphql(service, SETUP_QUERY, { domain: DOMAIN });
  expect(gql.body.errors).toBeUndefined();
  const gqlLine = (gql.body.data.domainSetup.records as { purpose: string; detail: string }[]).find((r) => r.purpose === 'forwarding');
  const tool = await mcp.callTool({ name: 'get_domain_setup', arguments: { domain: DOMAIN } });
  const first = Array.isArray(tool.content) ? (tool.content[0] as { text?: string }) : undefined;
  const mcpLine = (JSON.parse(first?.text ?? 'null') as { records: { purpose: string; detail: string }[] }).records.find((r) => r.purpose === 'forwarding');
  expect(restLine?.status).toBe('verified');
  expect(gqlLine?.detail).toBe(restLine?.detail);
  expect(mcpLine?.detail).toBe(restLine?.detail);
  return restLine!.detail;
}

const certificateRow = () => service.services.db.selectFrom('forwarding_certificates').selectAll().where('domain', '=', DOMAIN).executeTakeFirst();

beforeAll(async () => {
  if (!pebbleInstalled()) throw new Error(`pebble is not installed at ${PEBBLE_PATH}: apt-get install pebble (.ci/run does).`);
  bind = await startBindServer({
    resolver: true,
    zones: [
      // The A record already points at the forwarding listener; the rest comes with the apply.
      { name: DOMAIN, records: ['@ IN A 127.0.0.1'] },
      { name: 'google.com', records: googleZoneLines([...GOOGLE_SPF_FLAT, ...GOOGLE_MX_HOSTS]) },
    ],
  });
  // HTTP-01 would be validated on a port nothing listens on: only DNS-01 can succeed.
  pebble = await startPebble({ httpPort: await freePort(), dnsServer: `127.0.0.1:${bind.port}` });
  pebbleRoot = await pebble.rootPem();
  service = await startTestService({
    env: {
      FORWARD_PORT: '0',
      FORWARD_TLS_PORT: '0',
      FORWARD_TARGET: '127.0.0.1',
      ACME_DIRECTORY_URL: pebble.directoryUrl,
      ACME_CA_FILE: pebble.caFile,
      ACME_DNS01: 'on',
      DNS_SERVERS: `127.0.0.1:${bind.port}`,
      DNS_AUTHORITATIVE_PORT: String(bind.port),
      DNS_TIMEOUT_MS: '2000',
      DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
      DNS_PUBLISH_TIMEOUT_MS: '3000',
      REPORTS_DOMAIN: 'reports.example.net',
      JOBS: 'on',
      JOBS_SWEEP_INTERVAL_MS: '100',
    },
  });
  const db = service.services.db;
  // The demo's forwarded domains leave forwarding; one becomes ours, forwarded and waiting for its DNS.
  const forwarded = await db.selectFrom('domains').select(['id', 'forward_to']).where('forward_to', 'is not', null).orderBy('id').execute();
  await db
    .updateTable('domains')
    .set({ forward_to: null })
    .where(
      'id',
      'in',
      forwarded.map((d) => d.id),
    )
    .execute();
  const ours = forwarded[0]!;
  await db
    .updateTable('domains')
    .set({ domain: DOMAIN, forward_to: ours.forward_to, build_state: 'waiting_for_dns', mailboxes_created_at: new Date() })
    .where('id', '=', ours.id)
    .execute();
  await insertVerifiedDomains(db, service.demo.accountId, [DOMAIN], new Date());
  // The key the build would have made, so the apply publishes its DKIM record too and the setup verifies.
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await storeDkimKey(db, service.services.config.secretsKey, ours.id, {
    selector: 'google',
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  const created = await service.api('/v1/dns-connections', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      kind: 'rfc2136',
      server: '127.0.0.1',
      port: bind.port,
      key_name: bind.key.name,
      algorithm: bind.key.algorithm,
      secret: bind.key.secret,
    }),
  });
  if (created.status !== 200) throw new Error(`the connection was refused: ${await created.text()}`);
  connectionId = ((await created.json()) as { connection_id: number }).connection_id;
  mcp = new Client({ name: 'acme-dns01-test', version: '1' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${service.demo.key}` } } }),
  );
}, 90_000);

afterAll(async () => {
  await mcp?.close();
  await service?.close();
  await pebble?.close();
  await bind?.stop();
});

describe('DNS-01 through the domain’s DNS connection (pebble validating at a real BIND)', () => {
  it('before the domain is live, the setup says HTTPS is pending through every door and no certificate is asked for', async () => {
    expect(await forwardingLineEverywhere()).toMatch(/HTTPS is pending: the domain gets its own certificate once it is live/);
    expect(await certificateRow()).toBeUndefined();
  });

  it('once the setup is applied through the connection and the domain is live, its certificate comes over DNS-01, the challenge withdrawn by a journaled revert', async () => {
    const applied = await service.api(`/v1/domains/${DOMAIN}/setup/apply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ connection_id: connectionId, dry_run: false }),
    });
    const body = (await applied.json()) as { apply_id: number | null; build_state: string };
    expect(applied.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ apply_id: expect.any(Number), build_state: 'live' });
    const row = await waitFor('the certificate obtained over DNS-01', async () => {
      const r = await certificateRow();
      return r?.certificate_pem ? r : r?.last_error ? Promise.reject(new Error(r.last_error)) : null;
    });
    expect(row).toMatchObject({ failed_attempts: 0, last_error: null });
    const shown = await handshake(DOMAIN, pebbleRoot);
    expect(shown.certificate.subjectaltname).toBe(`DNS:${DOMAIN}`);
    expect(shown.authorized).toBe(true);
    // The challenge is gone from the zone, and the journal shows it published and reverted through the connection.
    expect(await askBind(bind.port, `_acme-challenge.${DOMAIN}`, 'TXT')).toEqual([]);
    const journal = await service.api(`/v1/domains/${DOMAIN}/setup/applies`);
    expect(journal.status).toBe(200);
    type Entry = { apply_id: number; kind: string; connection_id: number; reverts_apply_id: number | null; changes: { name: string; type: string }[] };
    const entries = ((await journal.json()) as { data: Entry[] }).data;
    const challenge = entries.filter((e) => e.changes.some((c) => c.name === `_acme-challenge.${DOMAIN}`));
    expect(challenge.map((e) => e.kind).sort()).toEqual(['apply', 'revert']);
    const [revert, apply] = [challenge.find((e) => e.kind === 'revert')!, challenge.find((e) => e.kind === 'apply')!];
    expect(revert.reverts_apply_id).toBe(apply.apply_id);
    expect(apply.connection_id).toBe(connectionId);
    // No HTTP-01 challenge was ever put in the table for the listener.
    expect(await service.services.db.selectFrom('acme_challenges').select('token').execute()).toEqual([]);
  });

  it('the setup says HTTPS is on through every door, until when', async () => {
    const row = (await certificateRow())!;
    expect(await forwardingLineEverywhere()).toContain(`HTTPS is on: the domain's certificate is valid until ${new Date(row.not_after!).toISOString()}`);
  });

  it('a renewal goes the same way: a new certificate, one more apply and revert in the journal', async () => {
    const db = service.services.db;
    const before = (await certificateRow())!;
    await db
      .updateTable('forwarding_certificates')
      .set({ not_after: new Date(Date.now() + 86_400_000), retry_at: null })
      .where('domain', '=', DOMAIN)
      .execute();
    const renewed = await waitFor('the renewed certificate', async () => {
      const r = await certificateRow();
      if (r?.last_error) throw new Error(r.last_error);
      const d = await db.selectFrom('domains').select('build_state').where('domain', '=', DOMAIN).executeTakeFirst();
      if (d?.build_state !== 'live') throw new Error(`build state ${d?.build_state}`);
      return r?.issued_at && before.issued_at && new Date(r.issued_at).getTime() > new Date(before.issued_at).getTime() ? r : null;
    });
    expect(renewed.certificate_pem).not.toBe(before.certificate_pem);
    expect(await askBind(bind.port, `_acme-challenge.${DOMAIN}`, 'TXT')).toEqual([]);
    const reverted = await db
      .selectFrom('setup_applies')
      .select(['kind', 'reverted_at'])
      .where('domain', '=', DOMAIN)
      .where('rrsets', 'like', '%_acme-challenge%')
      .execute();
    expect(reverted.filter((e) => e.kind === 'apply')).toHaveLength(2);
    expect(reverted.filter((e) => e.kind === 'apply').every((e) => e.reverted_at !== null)).toBe(true);
  });
});
