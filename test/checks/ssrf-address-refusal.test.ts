import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressRefusal } from '../../resolvers/checks/http/address-refusal.js';
import { createHttpsFetcher } from '../../resolvers/checks/http/create-https-fetcher.js';
import { createDnsLookup } from '../../resolvers/checks/dns/create-dns-lookup.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { startTestHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createTestCa, type TestCa } from '../support/test-ca.js';

describe('the address rule', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.5.6.7', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:c0a8:0101::1', 'private'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(addressRefusal(address)).toContain(kind);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34', '64:ff9b::808:808'])(
    'allows the public address %s', (address) => {
      expect(addressRefusal(address)).toBeNull();
    });

  it('refuses something that is not an address at all', () => {
    expect(addressRefusal('example.com')).toMatch(/not an IP address/);
  });
});

describe('fetching through names that point inside the network', () => {
  let ca: TestCa;
  let dnsServer: TestDnsServer;
  let https: TestHttpsServer;

  const targets: Record<string, ZoneRecord[]> = {
    'loopback.evil.test': [{ name: 'loopback.evil.test', type: 'A', data: '127.0.0.1' }],
    'ten.evil.test': [{ name: 'ten.evil.test', type: 'A', data: '10.0.0.7' }],
    'oneseventwo.evil.test': [{ name: 'oneseventwo.evil.test', type: 'A', data: '172.16.5.4' }],
    'oneninetwo.evil.test': [{ name: 'oneninetwo.evil.test', type: 'A', data: '192.168.0.10' }],
    'metadata.evil.test': [{ name: 'metadata.evil.test', type: 'A', data: '169.254.169.254' }],
    'v6loopback.evil.test': [{ name: 'v6loopback.evil.test', type: 'AAAA', data: '::1' }],
    'linklocal.evil.test': [{ name: 'linklocal.evil.test', type: 'AAAA', data: 'fe80::1' }],
    'mapped.evil.test': [{ name: 'mapped.evil.test', type: 'AAAA', data: '::ffff:127.0.0.1' }],
    // The public address comes first: a fetcher that checked only the first answer would connect on.
    'mixed.evil.test': [
      { name: 'mixed.evil.test', type: 'A', data: '93.184.216.34' },
      { name: 'mixed.evil.test', type: 'A', data: '10.0.0.1' },
    ],
    'mixed-families.evil.test': [
      { name: 'mixed-families.evil.test', type: 'A', data: '93.184.216.34' },
      { name: 'mixed-families.evil.test', type: 'AAAA', data: '::1' },
    ],
  };

  beforeAll(async () => {
    ca = createTestCa();
    const leaf = ca.issue({ hosts: ['loopback.evil.test', 'localhost'] });
    dnsServer = await startTestDnsServer({ records: Object.values(targets).flat() });
    https = await startTestHttpsServer({
      certificates: [{ hosts: ['loopback.evil.test', 'localhost'], ...leaf }],
      routes: { 'https://loopback.evil.test/secret': { body: 'internal data', contentType: 'text/plain' } },
    });
  });
  afterAll(async () => {
    await https?.close();
    await dnsServer?.close();
    ca?.close();
  });

  const fetcher = (allowPrivate: boolean) => createHttpsFetcher(
    createDnsLookup({ servers: [dnsServer.server], timeoutMs: 1000, tries: 1, concurrency: 8 }),
    { allowPrivate, httpsPort: https.port, ca: ca.certPem },
  );

  it.each(Object.keys(targets))('refuses %s without connecting when private addresses are not allowed', async (host) => {
    const before = https.requests.length;
    const result = await fetcher(false).get(`https://${host}/secret`, { maxBytes: 1000, timeoutMs: 3000 });
    expect(result).toMatchObject({ ok: false, code: 'address_refused' });
    expect(!result.ok && result.reason).toContain(host);
    expect(https.requests.length).toBe(before);
  });

  it.each(['https://127.0.0.1/secret', 'https://[::1]/secret', 'https://[::ffff:7f00:1]/secret', 'https://2130706433/secret'])(
    'refuses the address literal in %s', async (url) => {
      const result = await fetcher(false).get(url, { maxBytes: 1000, timeoutMs: 3000 });
      expect(result).toMatchObject({ ok: false, code: 'address_refused' });
    });

  it('fetches the same loopback name when private addresses are allowed (how the other tests reach 127.0.0.1)', async () => {
    const result = await fetcher(true).get('https://loopback.evil.test/secret', { maxBytes: 1000, timeoutMs: 3000 });
    expect(result.ok && result.body.toString()).toBe('internal data');
  });

  it('connects to the address it checked even when allowed, sending the name as SNI and Host', async () => {
    https.requests.length = 0;
    await fetcher(true).get('https://loopback.evil.test/secret', { maxBytes: 1000, timeoutMs: 3000 });
    expect(https.requests).toEqual([{ servername: 'loopback.evil.test', host: 'loopback.evil.test', path: '/secret' }]);
  });
});
