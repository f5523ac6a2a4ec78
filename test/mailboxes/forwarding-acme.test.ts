import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { connect, type PeerCertificate } from 'node:tls';
import { startTestService, type TestService } from '../support/test-service.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { freePort, pebbleInstalled, PEBBLE_PATH, startPebble, type PebbleServer } from '../support/pebble-server.js';
import { waitFor } from '../support/wait-for.js';
import { decryptSecret } from '../../resolvers/secrets/encrypt-secret.js';
import { certificateKeySealPurpose } from '../../resolvers/forwarding/certificate-seals.js';

/**
 * HTTPS on forwarded domains through the running service against a real ACME server: Debian's
 * pebble (Let's Encrypt's test server), resolving the test names to 127.0.0.1 through a test DNS
 * server and validating HTTP-01 on the service's forwarding port. A domain that goes live gets a
 * certificate of its own from the sweep's job, served by SNI on FORWARD_TLS_PORT and checked against
 * pebble's root; one near its end is replaced; a domain not live yet forwards over plain HTTP only
 * and its setup says HTTPS is pending.
 */
const LIVE = 'acme-live.test';
const WAITING = 'acme-waiting.test';

let dns: TestDnsServer;
let pebble: PebbleServer;
let service: TestService;
let target: string;
let pebbleRoot: string;

/** The TLS handshake with SNI `servername` on the forwarding HTTPS port: the certificate shown, and whether it verified against `ca`. */
function handshake(servername: string, ca?: string): Promise<{ certificate: PeerCertificate; authorized: boolean; error: string | null }> {
  const url = new URL(service.forwardTlsUrl!);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), servername, rejectUnauthorized: false, ...(ca !== undefined && { ca }) }, () => {
      const certificate = socket.getPeerCertificate();
      resolve({ certificate, authorized: socket.authorized, error: socket.authorizationError ? String(socket.authorizationError) : null });
      socket.end();
    });
    socket.on('error', reject);
  });
}

/** A GET over HTTPS with SNI and Host `name`, trusting only pebble's root and checking the name. */
function askHttps(name: string, path: string): Promise<{ status: number; location: string | undefined }> {
  const url = new URL(service.forwardTlsUrl!);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), servername: name, ca: pebbleRoot }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${name}\r\nConnection: close\r\n\r\n`);
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({ status, location: /\r\nlocation: ([^\r]+)/i.exec(answer)?.[1] });
    });
    socket.on('error', reject);
  });
}

function askHttp(name: string, path: string): Promise<{ status: number; location: string | undefined }> {
  const url = new URL(service.forwardUrl!);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers: { host: name } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location });
    });
    req.on('error', reject);
    req.end();
  });
}

const certificateRow = (domain: string) =>
  service.services.db.selectFrom('forwarding_certificates').selectAll().where('domain', '=', domain).executeTakeFirst();

async function forwardingLine(domain: string): Promise<string> {
  const res = await service.api(`/v1/domains/${domain}/setup`);
  expect(res.status).toBe(200);
  const setup = (await res.json()) as { records: { purpose: string; status: string; detail: string }[] };
  const line = setup.records.find((r) => r.purpose === 'forwarding');
  expect(line?.status).toBe('verified');
  return line!.detail;
}

beforeAll(async () => {
  if (!pebbleInstalled()) throw new Error(`pebble is not installed at ${PEBBLE_PATH}: apt-get install pebble (.ci/run does).`);
  dns = await startTestDnsServer({
    records: [
      { name: LIVE, type: 'A', data: '127.0.0.1' },
      { name: WAITING, type: 'A', data: '127.0.0.1' },
    ],
  });
  // Pebble must know the port it validates HTTP-01 on before it starts: the forwarding listener's, chosen here.
  const forwardPort = await freePort();
  pebble = await startPebble({ httpPort: forwardPort, dnsServer: dns.server });
  pebbleRoot = await pebble.rootPem();
  service = await startTestService({
    env: {
      FORWARD_PORT: String(forwardPort),
      FORWARD_TLS_PORT: '0',
      ACME_DIRECTORY_URL: pebble.directoryUrl,
      ACME_CA_FILE: pebble.caFile,
      ACME_EMAIL: 'operator@example.org',
      DNS_SERVERS: dns.server,
      JOBS: 'on',
      JOBS_SWEEP_INTERVAL_MS: '100',
    },
  });
  // The demo's own forwarded domains are not in the test DNS: they leave forwarding, and two become ours.
  const db = service.services.db;
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
  target = forwarded[0]!.forward_to!;
  await db.updateTable('domains').set({ domain: WAITING, forward_to: target, build_state: 'waiting_for_dns' }).where('id', '=', forwarded[1]!.id).execute();
}, 60_000);

afterAll(async () => {
  await service?.close();
  await pebble?.close();
  await dns?.close();
});

describe('HTTPS on forwarded domains over ACME (pebble)', () => {
  it('a forwarded domain not live yet forwards over plain HTTP, has no certificate, and its setup says HTTPS is pending', async () => {
    expect(await askHttp(WAITING, '/a?b=1')).toEqual({ status: 301, location: `https://${target}/a?b=1` });
    await expect(handshake(WAITING)).rejects.toThrow();
    expect(await forwardingLine(WAITING)).toMatch(/points at the forwarding service\. HTTPS is pending: the domain gets its own certificate once it is live/);
    expect(await certificateRow(WAITING)).toBeUndefined();
    // The HTTP-01 path answers only a challenge in flight for that name.
    const url = new URL(service.forwardUrl!);
    const unknownChallenge = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: '/.well-known/acme-challenge/no-such-token', headers: { host: WAITING } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(unknownChallenge.status).toBe(404);
    expect(JSON.parse(unknownChallenge.body)).toMatchObject({ code: 'not_found', detail: expect.stringContaining('No ACME challenge with this token') });
  });

  it('a domain that goes live gets its own certificate from pebble, served by SNI: the name and pebble’s chain check out, and the 301 answers over HTTPS', async () => {
    const db = service.services.db;
    const first = await db
      .selectFrom('domains')
      .select('id')
      .where('forward_to', 'is', null)
      .where('build_state', '=', 'live')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('domains').set({ domain: LIVE, forward_to: target }).where('id', '=', first.id).execute();
    const row = await waitFor('the certificate of the live domain stored', async () => {
      const r = await certificateRow(LIVE);
      return r?.certificate_pem ? r : null;
    });
    // Sealed at rest: not PEM in the table, and it opens only as this domain's key.
    expect(row.private_key_sealed).toMatch(/^v1\./);
    expect(decryptSecret(service.services.config.secretsKey, row.private_key_sealed!, certificateKeySealPurpose(LIVE))).toMatch(/PRIVATE KEY/);
    expect(row).toMatchObject({ failed_attempts: 0, last_error: null });
    const shown = await handshake(LIVE, pebbleRoot);
    expect(shown.certificate.subjectaltname).toBe(`DNS:${LIVE}`);
    expect(shown.certificate.issuer.CN).toMatch(/^Pebble Intermediate CA/);
    // Its key is ECDSA P-256 (clients/acme/acme-issuer.ts), not RSA.
    expect(shown.certificate.asn1Curve).toBe('prime256v1');
    expect(shown).toMatchObject({ authorized: true, error: null });
    expect(await askHttps(LIVE, '/pricing?ref=mail')).toEqual({ status: 301, location: `https://${target}/pricing?ref=mail` });
    expect(await askHttp(LIVE, '/')).toEqual({ status: 301, location: `https://${target}/` });
    // The ACME account's key is sealed too, bound to the directory.
    const account = await db.selectFrom('acme_accounts').selectAll().executeTakeFirstOrThrow();
    expect(account).toMatchObject({
      directory_url: pebble.directoryUrl,
      account_key_sealed: expect.stringMatching(/^v1\./),
      account_url: expect.stringMatching(/^https:\/\/localhost:/),
    });
    // The challenge was withdrawn once the order was valid.
    expect(await db.selectFrom('acme_challenges').select('token').execute()).toEqual([]);
  });

  it('a certificate near its end is replaced by the job, and the listener serves the new one from the next handshake', async () => {
    const db = service.services.db;
    const before = (await certificateRow(LIVE))!;
    const servedBefore = await handshake(LIVE, pebbleRoot);
    // Within ACME_RENEW_BEFORE_DAYS (30) of its end: the sweep queues the renewal.
    await db
      .updateTable('forwarding_certificates')
      .set({ not_after: new Date(Date.now() + 86_400_000), retry_at: null })
      .where('domain', '=', LIVE)
      .execute();
    const renewed = await waitFor('the renewed certificate stored', async () => {
      const r = await certificateRow(LIVE);
      return r?.issued_at && before.issued_at && new Date(r.issued_at).getTime() > new Date(before.issued_at).getTime() ? r : null;
    });
    expect(new Date(renewed.not_after!).getTime()).toBeGreaterThan(Date.now() + 30 * 86_400_000);
    expect(renewed.certificate_pem).not.toBe(before.certificate_pem);
    const servedAfter = await handshake(LIVE, pebbleRoot);
    expect(servedAfter.certificate.serialNumber).not.toBe(servedBefore.certificate.serialNumber);
    expect(servedAfter).toMatchObject({ authorized: true });
    expect(await askHttps(LIVE, '/')).toEqual({ status: 301, location: `https://${target}/` });
  });

  it('the setup’s forwarding line says HTTPS is on, until when', async () => {
    const row = (await certificateRow(LIVE))!;
    expect(await forwardingLine(LIVE)).toContain(`HTTPS is on: the domain's certificate is valid until ${new Date(row.not_after!).toISOString()}`);
  });
});

describe('certificates no longer due: expired, not forwarded, order cancelled', () => {
  it('an expired certificate is not served (the handshake fails) and the setup says HTTPS has lapsed; once renewed it is served again', async () => {
    const db = service.services.db;
    const before = (await certificateRow(LIVE))!;
    // Past its end, and its renewal held off by a retry time far ahead.
    const ended = new Date(Date.now() - 60_000);
    await db
      .updateTable('forwarding_certificates')
      .set({ not_after: ended, retry_at: new Date(Date.now() + 86_400_000) })
      .where('domain', '=', LIVE)
      .execute();
    await expect(handshake(LIVE)).rejects.toThrow();
    expect(await forwardingLine(LIVE)).toContain(`HTTPS has lapsed: the domain's certificate expired at ${ended.toISOString()}`);
    // The test zone holds only the A record, so reading the setup took the domain out of live: put it back.
    await db.updateTable('domains').set({ build_state: 'live' }).where('domain', '=', LIVE).execute();
    await db.updateTable('forwarding_certificates').set({ retry_at: null }).where('domain', '=', LIVE).execute();
    await waitFor('the lapsed certificate renewed', async () => {
      const r = await certificateRow(LIVE);
      return r?.issued_at && new Date(r.issued_at).getTime() > new Date(before.issued_at!).getTime() && r;
    });
    expect(await handshake(LIVE, pebbleRoot)).toMatchObject({ authorized: true });
  });

  it('a domain that stops being forwarded has its certificate no longer served at once, deleted with its key by the sweep, and not renewed', async () => {
    const db = service.services.db;
    expect((await certificateRow(LIVE))?.certificate_pem).toBeTruthy();
    await db.updateTable('domains').set({ forward_to: null }).where('domain', '=', LIVE).execute();
    await expect(handshake(LIVE)).rejects.toThrow();
    await waitFor('the certificate deleted', async () => (await certificateRow(LIVE)) === undefined);
    // Forwarded again: a new certificate, as for a new domain.
    await db.updateTable('domains').set({ forward_to: target }).where('domain', '=', LIVE).execute();
    await waitFor('a certificate again', async () => (await certificateRow(LIVE))?.certificate_pem);
    expect(await handshake(LIVE, pebbleRoot)).toMatchObject({ authorized: true });
  });

  it('a domain whose order is cancelled has its certificate no longer served and deleted; the setup says HTTPS is pending again', async () => {
    const db = service.services.db;
    const { order_id } = await db.selectFrom('domains').select('order_id').where('domain', '=', LIVE).executeTakeFirstOrThrow();
    const { status } = await db.selectFrom('orders').select('status').where('id', '=', order_id).executeTakeFirstOrThrow();
    await db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', order_id).execute();
    try {
      await expect(handshake(LIVE)).rejects.toThrow();
      await waitFor('the certificate deleted', async () => (await certificateRow(LIVE)) === undefined);
      // Not queued again while the order stays cancelled: the sweeps since left no row for it.
      expect(await certificateRow(LIVE)).toBeUndefined();
      expect(await forwardingLine(LIVE)).toMatch(/HTTPS is pending/);
    } finally {
      await db.updateTable('orders').set({ status }).where('id', '=', order_id).execute();
      await db.updateTable('domains').set({ build_state: 'live' }).where('domain', '=', LIVE).execute();
    }
  });
});
