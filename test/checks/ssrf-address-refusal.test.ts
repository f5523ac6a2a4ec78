import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressRefusal } from '../../clients/http/address-refusal.js';
import { createHttpsFetcher } from '../../clients/http/create-https-fetcher.js';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { startTestHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createTestCa, type TestCa } from '../support/test-ca.js';

describe('the address rule', () => {
  // [address, words the refusal must contain]
  it.each([
    // IPv4 special-purpose registry
    ['127.0.0.1', 'loopback'],
    ['127.5.6.7', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['192.0.0.9', 'IETF protocol assignments'],
    ['192.0.0.170', 'IETF protocol assignments'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.250', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.88.99.1', '6to4 relay'],
    ['192.31.196.1', 'AS112'],
    ['192.175.48.6', 'AS112'],
    ['192.52.193.1', 'AMT'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'class E'],
    ['255.255.255.255', 'broadcast'],
    // IPv6 special-purpose registry and non-global space
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique local'],
    ['fc00::1', 'unique local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:2::1', 'benchmarking'],
    ['2001:1::1', 'IETF protocol assignments'],
    ['2001:20::1', 'ORCHIDv2'],
    ['5f00::1', 'segment routing'],
    ['4000::1', 'outside IPv6 global unicast'],
    ['::ffff:0:a00:1', 'IPv4-translated'],
    // IPv4-compatible (deprecated), whatever it holds
    ['::7f00:1', 'IPv4-compatible form of 127.0.0.1'],
    ['::127.0.0.1', 'IPv4-compatible form of 127.0.0.1'],
    ['::a00:1', 'IPv4-compatible form of 10.0.0.1'],
    ['::8.8.8.8', 'IPv4-compatible form of 8.8.8.8'],
    // IPv4-mapped
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped form of 10.0.0.1'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:7f00:1', 'loopback'],
    // NAT64
    ['64:ff9b::a9fe:a9fe', 'NAT64 (64:ff9b::/96) form of 169.254.169.254'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['64:ff9b:1:808:8:800::', 'local-use NAT64'],
    // 6to4
    ['2002:c0a8:0101::1', 'private'],
    ['2002:7f00:1::1', '6to4 address routed to 127.0.0.1'],
    ['2002:a9fe:a9fe::', 'link-local'],
    // Teredo (RFC 4380 section 4's example: server 65.54.227.120, client 192.0.2.45 XOR-ed)
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'client is 192.0.2.45'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'client is 127.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'client is 10.0.0.1'],
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'server is 10.0.0.1'],
    // ISATAP interface identifiers in a global prefix
    ['2a00:1450:4001:1:0:5efe:a00:1', 'ISATAP address tunnelled to 10.0.0.1'],
    ['2a00:1450:4001:1:200:5efe:c0a8:101', 'ISATAP address tunnelled to 192.168.1.1'],
  ])('refuses %s (%s)', (address, words) => {
    expect(addressRefusal(address)).toContain(words);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '198.20.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81b::200e',
    '::ffff:93.184.216.34',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    '2a00:1450:4001:1:200:5efe:808:808',
  ])('allows the public address %s', (address) => {
    expect(addressRefusal(address)).toBeNull();
  });

  it('refuses something that is not an address at all', () => {
    expect(addressRefusal('example.com')).toMatch(/not an IP address/);
  });

  it('names the range and its CIDR in the sentence', () => {
    expect(addressRefusal('198.18.0.1')).toBe('198.18.0.1 is in the IPv4 benchmarking (RFC 2544) range (198.18.0.0/15)');
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
    'compatible.evil.test': [{ name: 'compatible.evil.test', type: 'AAAA', data: '::7f00:1' }],
    'nat64.evil.test': [{ name: 'nat64.evil.test', type: 'AAAA', data: '64:ff9b::a9fe:a9fe' }],
    'sixtofour.evil.test': [{ name: 'sixtofour.evil.test', type: 'AAAA', data: '2002:a00:1::1' }],
    'teredo.evil.test': [{ name: 'teredo.evil.test', type: 'AAAA', data: '2001:0:4136:e378:8000:63bf:80ff:fffe' }],
    'benchmark.evil.test': [{ name: 'benchmark.evil.test', type: 'A', data: '198.18.0.1' }],
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

  const fetcher = (allowPrivate: boolean) =>
    createHttpsFetcher(createDnsLookup({ servers: [dnsServer.server], timeoutMs: 1000, tries: 1, concurrency: 8 }), {
      allowPrivate,
      httpsPort: https.port,
      ca: ca.certPem,
    });

  it.each(Object.keys(targets))('refuses %s without connecting when private addresses are not allowed', async (host) => {
    const before = https.requests.length;
    const result = await fetcher(false).get(`https://${host}/secret`, { maxBytes: 1000, timeoutMs: 3000 });
    expect(result).toMatchObject({ ok: false, code: 'address_refused' });
    expect(!result.ok && result.reason).toContain(host);
    expect(https.requests.length).toBe(before);
  });

  it.each([
    'https://127.0.0.1/secret',
    'https://[::1]/secret',
    'https://[::ffff:7f00:1]/secret',
    'https://2130706433/secret',
    'https://[::7f00:1]/secret',
    'https://[::127.0.0.1]/secret',
    'https://[64:ff9b::7f00:1]/secret',
    'https://[2002:7f00:1::1]/secret',
    'https://0x7f.1/secret',
    'https://[::ffff:0:7f00:1]/secret',
    'https://240.0.0.1/secret',
  ])('refuses the address literal in %s', async (url) => {
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
