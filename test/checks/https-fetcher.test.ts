import { readSettings } from '../../config/settings.js';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpsFetcher } from '../../clients/http/create-https-fetcher.js';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import type { HttpsFetcher } from '../../clients/http/https-fetcher.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { startTestHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createTestCa, type TestCa } from '../support/test-ca.js';

// The fixture names exist only in the local test DNS server, so a fetch that reached them proves the
// fetcher resolved through the checks' DnsLookup and not through the system resolver.
const hosts = ['site.fetch.test', 'wrong-cert.fetch.test', 'expired.fetch.test', 'untrusted.fetch.test'];
const records: ZoneRecord[] = hosts.map((name) => ({ name, type: 'A', data: '127.0.0.1' }));

describe('the HTTPS fetcher', () => {
  let ca: TestCa;
  let otherCa: TestCa;
  let dnsServer: TestDnsServer;
  let server: TestHttpsServer;
  let fetcher: HttpsFetcher;

  beforeAll(async () => {
    ca = createTestCa();
    otherCa = createTestCa('Nobody Trusts This CA');
    const good = ca.issue({ hosts: ['site.fetch.test'] });
    const forAnotherName = ca.issue({ hosts: ['somewhere-else.test'] });
    const expired = ca.issue({ hosts: ['expired.fetch.test'], notBefore: new Date('2020-01-01'), notAfter: new Date('2021-01-01') });
    const untrusted = otherCa.issue({ hosts: ['untrusted.fetch.test'] });
    dnsServer = await startTestDnsServer({
      records: [...records],
      behaviours: { 'broken.fetch.test': 'servfail' },
    });
    server = await startTestHttpsServer({
      certificates: [
        { hosts: ['site.fetch.test'], ...good },
        { hosts: ['wrong-cert.fetch.test'], ...forAnotherName },
        { hosts: ['expired.fetch.test'], ...expired },
        { hosts: ['untrusted.fetch.test'], ...untrusted },
      ],
      routes: {
        'https://site.fetch.test/hello.txt': { body: 'hello', contentType: 'text/plain; charset=utf-8', headers: { 'x-extra': 'yes' } },
        'https://site.fetch.test/moved': { redirect: 'https://site.fetch.test/hello.txt' },
        'https://site.fetch.test/gone': { status: 410, body: 'gone' },
        'https://site.fetch.test/big': { body: 'x'.repeat(5000) },
        'https://site.fetch.test/big-chunked': { body: 'y'.repeat(5000), headers: { 'transfer-encoding': 'chunked' } },
        'https://site.fetch.test/slow': { body: 'late', delayMs: 1500 },
        'https://wrong-cert.fetch.test/hello.txt': { body: 'hello' },
        'https://expired.fetch.test/hello.txt': { body: 'hello' },
        'https://untrusted.fetch.test/hello.txt': { body: 'hello' },
      },
    });
    // Tests trust their own CA through `ca`; production relies on Node's roots plus NODE_EXTRA_CA_CERTS.
    fetcher = createHttpsFetcher(createDnsLookup({ servers: [dnsServer.server], timeoutMs: 1000, tries: 1, concurrency: 8 }), {
      allowPrivate: true,
      httpsPort: server.port,
      ca: ca.certPem,
    });
  });
  afterAll(async () => {
    await server?.close();
    await dnsServer?.close();
    ca?.close();
    otherCa?.close();
  });

  const limits = { maxBytes: 1000, timeoutMs: 3000 };

  it('returns status, lower-cased headers and body of a 200', async () => {
    const result = await fetcher.get('https://site.fetch.test/hello.txt', limits);
    expect(result).toMatchObject({ ok: true, status: 200, url: 'https://site.fetch.test/hello.txt' });
    if (!result.ok) throw new Error(result.reason);
    expect(result.body.toString()).toBe('hello');
    expect(result.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(result.headers['x-extra']).toBe('yes');
  });

  it('hands a redirect back as-is and does not follow it', async () => {
    server.requests.length = 0;
    const result = await fetcher.get('https://site.fetch.test/moved', limits);
    expect(result).toMatchObject({ ok: true, status: 301, headers: { location: 'https://site.fetch.test/hello.txt' } });
    expect(server.requests.map((r) => r.path)).toEqual(['/moved']);
  });

  it('returns a non-200 status as an answer, not a failure', async () => {
    const result = await fetcher.get('https://site.fetch.test/gone', limits);
    expect(result).toMatchObject({ ok: true, status: 410 });
  });

  it('stops at a declared length over the cap', async () => {
    const result = await fetcher.get('https://site.fetch.test/big', limits);
    expect(result).toMatchObject({ ok: false, code: 'too_large' });
    expect(!result.ok && result.reason).toContain('1000-byte limit');
  });

  it('stops reading a chunked body once it passes the cap', async () => {
    const result = await fetcher.get('https://site.fetch.test/big-chunked', limits);
    expect(result).toMatchObject({ ok: false, code: 'too_large' });
  });

  it('gives up at the deadline', async () => {
    // What ended the fetch is read from its code, not from a stopwatch. The slow page answers after
    // 1.5 s, so without the deadline the fetch would succeed. The deadline reads "timeout" once the TLS
    // handshake is done and "unreachable" before it (a busy machine may not finish the handshake in
    // time): either way the deadline ended it, since the server is up and never refuses.
    const result = await fetcher.get('https://site.fetch.test/slow', { maxBytes: 1000, timeoutMs: 1000 });
    expect(result.ok).toBe(false);
    expect(!result.ok && ['timeout', 'unreachable'].includes(result.code), JSON.stringify(result)).toBe(true);
  });

  it('refuses a certificate issued for another name', async () => {
    const result = await fetcher.get('https://wrong-cert.fetch.test/hello.txt', limits);
    expect(result).toMatchObject({ ok: false, code: 'certificate_invalid' });
  });

  it('refuses an expired certificate', async () => {
    const result = await fetcher.get('https://expired.fetch.test/hello.txt', limits);
    expect(result).toMatchObject({ ok: false, code: 'certificate_invalid' });
    expect(!result.ok && result.reason).toContain('CERT_HAS_EXPIRED');
  });

  it('refuses a certificate from a CA it does not trust', async () => {
    const result = await fetcher.get('https://untrusted.fetch.test/hello.txt', limits);
    expect(result).toMatchObject({ ok: false, code: 'certificate_invalid' });
  });

  it('refuses our own test certificate when the test CA is not passed', async () => {
    const strict = createHttpsFetcher(createDnsLookup({ servers: [dnsServer.server], timeoutMs: 1000, tries: 1, concurrency: 8 }), {
      allowPrivate: true,
      httpsPort: server.port,
    });
    const result = await strict.get('https://site.fetch.test/hello.txt', limits);
    expect(result).toMatchObject({ ok: false, code: 'certificate_invalid' });
  });

  it('fetches only HTTPS URLs', async () => {
    expect(await fetcher.get('http://site.fetch.test/hello.txt', limits)).toMatchObject({ ok: false, code: 'not_https' });
    expect(await fetcher.get('not a url', limits)).toMatchObject({ ok: false, code: 'invalid_url' });
  });

  it('says a name has no address rather than that the lookup failed', async () => {
    expect(await fetcher.get('https://nothing-here.fetch.test/', limits)).toMatchObject({ ok: false, code: 'no_address' });
  });

  it('says the lookup failed when the DNS server fails', async () => {
    const result = await fetcher.get('https://broken.fetch.test/', limits);
    expect(result).toMatchObject({ ok: false, code: 'dns_failed' });
  });
});

describe('ports and connection failures', () => {
  let ca: TestCa;
  let dnsServer: TestDnsServer;
  let server: TestHttpsServer;
  let silent: Server;
  const held = new Set<Socket>();
  let closedPort: number;
  const dns = () => createDnsLookup({ servers: [dnsServer.server], timeoutMs: 1000, tries: 1, concurrency: 8 });
  const limits = { maxBytes: 1000, timeoutMs: 400 };

  beforeAll(async () => {
    ca = createTestCa();
    dnsServer = await startTestDnsServer({ records: [{ name: 'site.fetch.test', type: 'A', data: '127.0.0.1' }] });
    server = await startTestHttpsServer({
      certificates: [{ hosts: ['site.fetch.test'], ...ca.issue({ hosts: ['site.fetch.test'] }) }],
      routes: { 'https://site.fetch.test/hello.txt': { body: 'hello' } },
    });
    // Accepts TCP and never speaks: to a client, the same as a filtered port.
    silent = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    // A port that was free a moment ago and is now closed: connecting is refused at once.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    if (silent) await new Promise<void>((resolve) => silent.close(() => resolve()));
    await server?.close();
    await dnsServer?.close();
    ca?.close();
  });

  const fetcherOn = (httpsPort: number) => createHttpsFetcher(dns(), { allowPrivate: true, httpsPort, ca: ca.certPem });

  it('refuses a URL naming another port, without connecting, and says what to change', async () => {
    server.requests.length = 0;
    const result = await fetcherOn(server.port).get('https://site.fetch.test:8443/hello.txt', limits);
    expect(result).toEqual({
      ok: false,
      code: 'port_refused',
      reason: 'https://site.fetch.test:8443/hello.txt names port 8443; only the standard HTTPS port 443 is fetched, so publish the URL without a port.',
    });
    expect(server.requests).toEqual([]);
  });

  it('takes an explicit :443, which the URL parser drops as the default, and the configured test port', async () => {
    server.requests.length = 0;
    expect(await fetcherOn(server.port).get('https://site.fetch.test:443/hello.txt', limits)).toMatchObject({ ok: true, status: 200 });
    expect(await fetcherOn(server.port).get(`https://site.fetch.test:${server.port}/hello.txt`, limits)).toMatchObject({ ok: true, status: 200 });
    expect(server.requests).toHaveLength(2);
  });

  it('says the same neutral sentence for a refused port and a silent one: port states stay hidden', async () => {
    const refused = await fetcherOn(closedPort).get('https://site.fetch.test/hello.txt', limits);
    const timedOut = await fetcherOn((silent.address() as AddressInfo).port).get('https://site.fetch.test/hello.txt', limits);
    const sentence = 'Could not connect to site.fetch.test over HTTPS; check that it accepts HTTPS connections on port 443.';
    expect(refused).toEqual({ ok: false, code: 'connection_failed', reason: sentence });
    expect(timedOut).toEqual(refused);
    expect(JSON.stringify([refused, timedOut])).not.toMatch(/ECONN|EHOST|ETIMEDOUT|socket|within/);
  });
});

describe('httpsConfigFromEnv', () => {
  it('defaults to port 443 with the address rule on', () => {
    expect(readSettings({}).https).toEqual({ allowPrivate: false, httpsPort: 443 });
  });

  it('reads CHECKS_ALLOW_PRIVATE_ADDRESSES=1 and CHECKS_HTTPS_PORT', () => {
    expect(readSettings({ CHECKS_ALLOW_PRIVATE_ADDRESSES: '1', CHECKS_HTTPS_PORT: '8443' }).https).toEqual({ allowPrivate: true, httpsPort: 8443 });
  });

  it('keeps the address rule on for any other value', () => {
    expect(readSettings({ CHECKS_ALLOW_PRIVATE_ADDRESSES: '0' }).https.allowPrivate).toBe(false);
  });

  it('fails at start-up on a port that is not a port', () => {
    expect(() => readSettings({ CHECKS_HTTPS_PORT: '99999' }).https).toThrow(/CHECKS_HTTPS_PORT/);
  });
});
