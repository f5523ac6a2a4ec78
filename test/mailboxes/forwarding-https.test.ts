import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '../support/test-service.js';
import { readSettings } from '../../config/settings.js';

/**
 * The forwarding listener over HTTPS (FORWARD_TLS_PORT with FORWARD_TLS_CERT and
 * FORWARD_TLS_KEY), with a self-signed certificate made here by openssl for the demo account's
 * domains: the client trusts only that certificate and checks the name, so a 301 proves the listener
 * served it for the domain asked. HTTP keeps answering beside it; bad settings stop the start.
 */
let service: TestService;
let dir: string;
let certPem: string;
let forwarded: string;
let target: string;

/** A self-signed certificate naming `hosts` (SANs), and its key, in `dir` under `name`. */
function selfSigned(name: string, hosts: readonly string[]): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${hosts[0]}`,
      '-addext',
      `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}`,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return { cert, key };
}

function askHttps(host: string, path = '/', servername = host): Promise<{ status: number; location: string | undefined; body: string }> {
  const url = new URL(service.forwardTlsUrl!);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET', headers: { host }, servername, ca: certPem, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The ordered domain the certificate names (one of the demo account's, renamed to it: demo names change per seeding). */
const NAMED = 'northwind-forward.test';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'forward-tls-'));
  const files = selfSigned('forward', [NAMED, `www.${NAMED}`]);
  certPem = readFileSync(files.cert, 'utf8');
  service = await startTestService({ env: { FORWARD_PORT: '0', FORWARD_TLS_PORT: '0', FORWARD_TLS_CERT: files.cert, FORWARD_TLS_KEY: files.key } });
  const withForward = await service.services.db
    .selectFrom('domains')
    .select(['id', 'forward_to'])
    .where('account_id', '=', service.demo.accountId)
    .where('forward_to', 'is not', null)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await service.services.db.updateTable('domains').set({ domain: NAMED }).where('id', '=', withForward.id).execute();
  forwarded = NAMED;
  target = withForward.forward_to!;
});
afterAll(async () => {
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('forwarding over HTTPS', () => {
  it('answers 301 to forward_to over TLS with the configured certificate, checked for the domain’s name; HTTP still answers', async () => {
    expect(service.forwardTlsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const answer = await askHttps(forwarded, '/pricing?ref=mail');
    expect(answer).toMatchObject({ status: 301, location: `https://${target}/pricing?ref=mail` });
    // (fetch cannot set Host; node:http can, as a browser sends the typed name.)
    const url = new URL(service.forwardUrl!);
    const plain = await new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: '/', headers: { host: forwarded } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      });
      req.on('error', reject);
      req.end();
    });
    expect(plain).toEqual({ status: 301, location: `https://${target}/` });
  });

  it('a Host on no order is a 404 with a sentence over HTTPS too; a name the certificate does not hold fails the client’s check', async () => {
    const unknown = await askHttps('nobody-ordered.example', '/', forwarded);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 'not_found', detail: expect.stringContaining('not a domain on any order') });
    await expect(askHttps('nobody-ordered.example')).rejects.toThrow(/altnames|does not match|Hostname/i);
  });

  it('the three settings go together; an unreadable file, a file without PEM and a key not the certificate’s stop the start, naming the variable', async () => {
    const base = { DNS_SERVERS: '127.0.0.1' };
    expect(() => readSettings({ ...base, FORWARD_TLS_PORT: '8443' })).toThrow(/FORWARD_TLS_PORT, FORWARD_TLS_CERT .* and FORWARD_TLS_KEY/);
    expect(() => readSettings({ ...base, FORWARD_TLS_CERT: '/c.pem', FORWARD_TLS_KEY: '/k.pem' })).toThrow(/all three/);
    expect(() => readSettings({ ...base, FORWARD_TLS_PORT: 'https' })).toThrow(/FORWARD_TLS_PORT must be a port number/);
    expect(readSettings({ ...base, FORWARD_TLS_PORT: '8443', FORWARD_TLS_CERT: '/c.pem', FORWARD_TLS_KEY: '/k.pem' }).forwardTls).toEqual({
      port: 8443,
      certFile: '/c.pem',
      keyFile: '/k.pem',
    });
    // With ACME, the port alone serves each domain's own certificate; the files still go together.
    expect(readSettings({ ...base, FORWARD_TLS_PORT: '8443', ACME_DIRECTORY_URL: 'https://acme.example/directory' }).forwardTls).toEqual({
      port: 8443,
      certFile: null,
      keyFile: null,
    });
    expect(() => readSettings({ ...base, FORWARD_TLS_PORT: '8443', ACME_DIRECTORY_URL: 'https://acme.example/directory', FORWARD_TLS_CERT: '/c.pem' })).toThrow(
      /all three .* or FORWARD_TLS_PORT with ACME_DIRECTORY_URL/,
    );
    expect(readSettings({ ...base, ACME_DIRECTORY_URL: 'https://acme.example/directory', ACME_RENEW_BEFORE_DAYS: '20' }).jobs.acme).toEqual({
      directoryUrl: 'https://acme.example/directory',
      caFile: null,
      email: null,
      renewBeforeMs: 20 * 86_400_000,
      dns01: null,
    });
    expect(readSettings({ ...base, ACME_DIRECTORY_URL: 'https://acme.example/directory', ACME_DNS01: 'on' }).jobs.acme?.dns01).toEqual({ waitMs: 300_000 });
    expect(() => readSettings({ ...base, ACME_DIRECTORY_URL: 'https://acme.example/directory', ACME_DNS01: 'yes' })).toThrow(/ACME_DNS01/);
    expect(readSettings(base).jobs.acme).toBeNull();
    expect(() => readSettings({ ...base, ACME_DIRECTORY_URL: 'acme.example' })).toThrow(/ACME_DIRECTORY_URL must be an ACME directory URL/);
    const other = selfSigned('other', ['other.example']);
    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    const start = (cert: string, key: string) => startTestService({ env: { FORWARD_TLS_PORT: '0', FORWARD_TLS_CERT: cert, FORWARD_TLS_KEY: key } });
    await expect(start(join(dir, 'missing.crt'), other.key)).rejects.toThrow(/FORWARD_TLS_CERT \(.*missing\.crt\) cannot be read/);
    await expect(start(notPem, other.key)).rejects.toThrow(/FORWARD_TLS_CERT .* holds no PEM certificate/);
    await expect(start(other.cert, join(dir, 'forward.key'))).rejects.toThrow(/are not a certificate and its key/);
  });
});
