import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMESERVERS_LIMIT, parseBulkInput } from '../../resolvers/checks/bulk-input.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { checkNameservers } from '../../resolvers/checks/nameservers/check-nameservers.js';
import { DNS_PROVIDERS } from '../../resolvers/checks/nameservers/dns-provider-table.js';
import { hostHasSuffix, matchSuffixRule } from '../../resolvers/checks/nameservers/match-host-suffix.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { dnsOnlyCheckContext } from '../support/dns-check-context.js';

const ns = (name: string, ...servers: string[]): ZoneRecord[] => servers.map((data) => ({ name, type: 'NS', data }));

const records: ZoneRecord[] = [
  ...ns('cf.example', 'lara.ns.cloudflare.com', 'greg.ns.cloudflare.com'),
  ...ns('aws.example', 'ns-1.awsdns-01.org', 'ns-2.awsdns-02.co.uk', 'ns-3.awsdns-03.com', 'ns-4.awsdns-04.net'),
  ...ns('mixed.example', 'ns1.domaincontrol.com', 'dns1.registrar-servers.com'),
  ...ns('own.example', 'ns1.own.example', 'ns2.own.example'),
  ...ns('fake.example', 'ns1.notcloudflare.com'),
  { name: 'www.cf.example', type: 'A', data: '192.0.2.1' },
];

let server: TestDnsServer;
beforeAll(async () => {
  server = await startTestDnsServer({ records, behaviours: { 'slow.example': 'timeout' } });
});
afterAll(() => server.close());

const ctx = (): CheckContext => dnsOnlyCheckContext(server);

describe('provider suffix table', () => {
  it.each([
    ['ns-1234.awsdns-12.co.uk', 'route53'], ['ns-cloud-a1.googledomains.com', 'google_cloud_dns'], ['ns1-05.azure-dns.com', 'azure_dns'],
    ['ns1.digitalocean.com', 'digitalocean'], ['curitiba.ns.porkbun.com', 'porkbun'], ['hydrogen.ns.hetzner.com', 'hetzner'],
    ['dns10.ovh.net', 'ovh'], ['ns-12-a.gandi.net', 'gandi'], ['dns1.p01.nsone.net', 'ns1'], ['ns1.vercel-dns.com', 'vercel'],
    ['ns1.ui-dns.de', 'ionos'], ['ns1.dns-parking.com', 'hostinger'], ['ns0.wixdns.net', 'wix'],
  ])('%s is %s', (host, id) => {
    expect(matchSuffixRule(host, DNS_PROVIDERS)?.id).toBe(id);
  });

  it.each(['ns1.notcloudflare.com', 'cloudflare.com.evil.example', 'ns.awsdns-01.com.evil.example', 'ns1.myovh.net'])('%s matches no provider (suffix, never substring)', (host) => {
    expect(matchSuffixRule(host, DNS_PROVIDERS)).toBeNull();
  });

  it('matches whole labels only', () => {
    expect(hostHasSuffix('a.b.example', 'b.example')).toBe(true);
    expect(hostHasSuffix('ab.example', 'b.example')).toBe(false);
  });
});

describe('check-nameservers', () => {
  it('gives NS records and provider per domain, groups mixed providers and leaves unknown servers unknown', async () => {
    const answer = await checkNameservers({ domains: 'cf.example,aws.example,mixed.example,own.example,fake.example' }, ctx());
    const by = (d: string) => answer.results.find((r) => r.domain === d);
    expect(by('cf.example')).toMatchObject({ outcome: 'ok', provider: 'Cloudflare', nameservers: ['greg.ns.cloudflare.com', 'lara.ns.cloudflare.com'] });
    expect(by('aws.example')).toMatchObject({ provider: 'Amazon Route 53' });
    expect(by('mixed.example')?.provider).toBe('Mixed');
    expect(by('mixed.example')?.providers.map((p) => p.id).sort()).toEqual(['godaddy', 'namecheap']);
    expect(by('own.example')).toMatchObject({ provider: null, providers: [{ id: 'unknown' }] });
    expect(by('fake.example')?.provider).toBeNull();
    expect(answer.provider_counts).toEqual({ Cloudflare: 1, 'Amazon Route 53': 1, Mixed: 1 });
    expect(answer.status).toBe('pass');
  });

  it('a host name shows its zone\'s name servers; NXDOMAIN and timeouts are told apart', async () => {
    const answer = await checkNameservers({ domains: ['www.cf.example', 'absent.example', 'slow.example'] }, ctx());
    expect(answer.results.map((r) => [r.domain, r.outcome, r.zone])).toEqual([
      ['www.cf.example', 'ok', 'cf.example'], ['absent.example', 'not_found', null], ['slow.example', 'lookup_failed', null],
    ]);
    expect(answer.results[2]?.reason).toMatch(/timeout.*not a missing record/);
    expect(answer.status).toBe('warn');
  });

  it('all lookups failing is status error', async () => {
    await expect(checkNameservers({ domains: 'slow.example' }, ctx())).resolves.toMatchObject({ status: 'error' });
  });
});

describe('bulk input', () => {
  it('takes a comma-separated string or a list, trims, drops empties and keeps duplicates once', () => {
    expect(parseBulkInput(' a.example, b.example,,a.example ', 'domains', 10, 'x')).toEqual(['a.example', 'b.example']);
    expect(parseBulkInput(['a.example', ' b.example', 'a.example,c.example'], 'domains', 10, 'x')).toEqual(['a.example', 'b.example', 'c.example']);
  });

  it('refuses empty input, non-strings and one over the limit with a sentence naming the limit', () => {
    expect(() => parseBulkInput(' , ', 'domains', 10, 'x')).toThrow(/Pass the parameter "domains"/);
    expect(() => parseBulkInput([1, 2], 'domains', 10, 'x')).toThrow(/list of strings/);
    const many = Array.from({ length: NAMESERVERS_LIMIT + 1 }, (_, i) => `d${i}.example`);
    expect(() => parseBulkInput(many, 'domains', NAMESERVERS_LIMIT, 'x')).toThrow(`the limit is ${NAMESERVERS_LIMIT} per call`);
    expect(parseBulkInput([...many.slice(0, NAMESERVERS_LIMIT), 'd0.example'], 'domains', NAMESERVERS_LIMIT, 'x')).toHaveLength(NAMESERVERS_LIMIT);
  });
});
