import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { checkDns } from '../../resolvers/checks/dns-records/check-dns.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { dnsOnlyCheckContext } from '../support/dns-check-context.js';

const records: ZoneRecord[] = [
  { name: 'zone.example', type: 'MX', data: { preference: 20, exchange: 'mx2.zone.example' }, ttl: 3600 },
  { name: 'zone.example', type: 'MX', data: { preference: 10, exchange: 'mx1.zone.example' }, ttl: 3600 },
  { name: 'zone.example', type: 'MX', data: { preference: 10, exchange: 'alt.zone.example' }, ttl: 3600 },
  { name: 'zone.example', type: 'TXT', data: ['v=spf1 ', 'include:_spf.example -all'], ttl: 300 },
  { name: 'zone.example', type: 'TXT', data: ['google-site-verification=abc'], ttl: 300 },
  { name: 'zone.example', type: 'A', data: '192.0.2.10' },
  { name: 'zone.example', type: 'A', data: '192.0.2.9' },
  { name: 'zone.example', type: 'A', data: '10.0.0.1' },
  { name: 'zone.example', type: 'AAAA', data: '2001:db8::10' },
  { name: 'zone.example', type: 'AAAA', data: '2001:db8::9' },
  { name: 'zone.example', type: 'NS', data: 'ns2.dns.example' },
  { name: 'zone.example', type: 'NS', data: 'ns1.dns.example' },
  {
    name: 'zone.example',
    type: 'SOA',
    data: { mname: 'ns1.dns.example', rname: 'hostmaster.zone.example', serial: 2026092601, refresh: 7200, retry: 900, expire: 1209600, minimum: 300 },
  },
  { name: 'zone.example', type: 'CAA', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
  { name: 'zone.example', type: 'CAA', data: { flags: 128, tag: 'iodef', value: 'mailto:sec@zone.example' } },
  { name: 'www.zone.example', type: 'CNAME', data: 'zone.example', ttl: 60 },
  { name: '_dmarc.zone.example', type: 'TXT', data: ['v=DMARC1; p=none'] },
  { name: 'nomail.example', type: 'MX', data: { preference: 0, exchange: '' } },
  { name: 'ipmx.example', type: 'MX', data: { preference: 10, exchange: '192.0.2.1' } },
  ...['mx1', 'mx2', 'alt'].map((h): ZoneRecord => ({ name: `${h}.zone.example`, type: 'A', data: '192.0.2.20' })),
  // A null MX beside a real one (RFC 7505 section 3 forbids it).
  { name: 'mixednull.example', type: 'MX', data: { preference: 0, exchange: '' } },
  { name: 'mixednull.example', type: 'MX', data: { preference: 10, exchange: 'mx.mixednull.example' } },
  { name: 'mx.mixednull.example', type: 'A', data: '192.0.2.21' },
  // An MX host that is an alias (RFC 2181 section 10.3), and one with no address.
  { name: 'aliasmx.example', type: 'MX', data: { preference: 10, exchange: 'mail.aliasmx.example' } },
  { name: 'mail.aliasmx.example', type: 'CNAME', data: 'mx.provider.example' },
  { name: 'mx.provider.example', type: 'A', data: '192.0.2.22' },
  { name: 'ghostmx.example', type: 'MX', data: { preference: 10, exchange: 'ghost.ghostmx.example' } },
  { name: 'ghostmx.example', type: 'MX', data: { preference: 20, exchange: 'mx.provider.example' } },
  // A CNAME to a name that does not exist: NXDOMAIN is about the end of the chain (RFC 6604).
  { name: 'dangling.zone.example', type: 'CNAME', data: 'gone.nowhere.example' },
];

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startTestDnsServer({ records, behaviours: { 'down.example': 'timeout', 'broken.example': 'servfail' } });
});
afterAll(() => dns.close());

const ctx = (): CheckContext => dnsOnlyCheckContext(dns);

describe('checkDns', () => {
  it('defaults to MX and sorts by preference, then name', async () => {
    const answer = await checkDns({ domain: 'zone.example' }, ctx());
    expect(answer).toMatchObject({ status: 'pass', type: 'MX', outcome: 'records', domain: 'zone.example' });
    expect(answer.records).toEqual([
      { preference: 10, exchange: 'alt.zone.example', ttl: 3600 },
      { preference: 10, exchange: 'mx1.zone.example', ttl: 3600 },
      { preference: 20, exchange: 'mx2.zone.example', ttl: 3600 },
    ]);
    expect(answer.summary).toMatch(/3 MX records: 10 alt\.zone\.example/);
  });

  it('takes the type case-insensitively and joins TXT character-strings', async () => {
    const answer = await checkDns({ domain: 'zone.example', type: 'txt' }, ctx());
    expect(answer.type).toBe('TXT');
    expect(answer.records).toEqual([
      { value: 'google-site-verification=abc', strings: ['google-site-verification=abc'], ttl: 300 },
      { value: 'v=spf1 include:_spf.example -all', strings: ['v=spf1 ', 'include:_spf.example -all'], ttl: 300 },
    ]);
  });

  it('sorts A and AAAA addresses numerically', async () => {
    const a = await checkDns({ domain: 'zone.example', type: 'A' }, ctx());
    expect(a.records.map((r) => 'address' in r && r.address)).toEqual(['10.0.0.1', '192.0.2.9', '192.0.2.10']);
    const aaaa = await checkDns({ domain: 'zone.example', type: 'AAAA' }, ctx());
    expect(aaaa.records.map((r) => 'address' in r && r.address)).toEqual(['2001:db8::9', '2001:db8::10']);
  });

  it('answers NS and CNAME as targets', async () => {
    const ns = await checkDns({ domain: 'zone.example', type: 'NS' }, ctx());
    expect(ns.records).toEqual([
      { target: 'ns1.dns.example', ttl: 300 },
      { target: 'ns2.dns.example', ttl: 300 },
    ]);
    const cname = await checkDns({ domain: 'www.zone.example', type: 'CNAME' }, ctx());
    expect(cname.records).toEqual([{ target: 'zone.example', ttl: 60 }]);
  });

  it('answers SOA fields and CAA flags, tag and value', async () => {
    const soa = await checkDns({ domain: 'zone.example', type: 'SOA' }, ctx());
    expect(soa.records).toEqual([
      { mname: 'ns1.dns.example', rname: 'hostmaster.zone.example', serial: 2026092601, refresh: 7200, retry: 900, expire: 1209600, minimum: 300, ttl: 300 },
    ]);
    const caa = await checkDns({ domain: 'zone.example', type: 'CAA' }, ctx());
    expect(caa.records).toEqual([
      { flags: 128, tag: 'iodef', value: 'mailto:sec@zone.example', ttl: 300 },
      { flags: 0, tag: 'issue', value: 'letsencrypt.org', ttl: 300 },
    ]);
  });

  it('looks up underscore names such as _dmarc', async () => {
    const answer = await checkDns({ domain: '_dmarc.zone.example', type: 'TXT' }, ctx());
    expect(answer.records).toHaveLength(1);
  });

  it('tells no data apart from NXDOMAIN and from a failed lookup', async () => {
    const nodata = await checkDns({ domain: '_dmarc.zone.example', type: 'MX' }, ctx());
    expect(nodata).toMatchObject({ outcome: 'nodata', status: 'warn', records: [] });
    expect(nodata.summary).toMatch(/exists but has no MX/);
    const nx = await checkDns({ domain: 'missing.zone.example', type: 'A' }, ctx());
    expect(nx).toMatchObject({ outcome: 'nxdomain', status: 'fail' });
    expect(nx.summary).toMatch(/NXDOMAIN/);
    const timeout = await checkDns({ domain: 'down.example' }, ctx());
    expect(timeout).toMatchObject({ outcome: 'failed', status: 'error' });
    expect(timeout.findings[0]!.code).toBe('dns_lookup_failed');
    const servfail = await checkDns({ domain: 'broken.example', type: 'TXT' }, ctx());
    expect(servfail.summary).toMatch(/servfail/);
  });

  it('notes a null MX and fails an MX that is an IP address, saying to name a host', async () => {
    const nullMx = await checkDns({ domain: 'nomail.example' }, ctx());
    expect(nullMx.findings.map((f) => f.code)).toEqual(['dns_null_mx']);
    const ipMx = await checkDns({ domain: 'ipmx.example' }, ctx());
    expect(ipMx.status).toBe('fail');
    expect(ipMx.findings.map((f) => f.code)).toEqual(['dns_mx_is_address']);
    expect(ipMx.findings[0]!.message).toMatch(/host name with an A record/);
  });

  it('a null MX beside other MX records is an error (RFC 7505 section 3)', async () => {
    const answer = await checkDns({ domain: 'mixednull.example' }, ctx());
    expect(answer.status).toBe('fail');
    expect(answer.findings.map((f) => f.code)).toEqual(['dns_mx_null_with_others']);
    expect(answer.findings[0]!.message).toMatch(/Remove the null MX/);
  });

  it('flags an MX host that is a CNAME, naming the target to point at, and one with no address', async () => {
    const alias = await checkDns({ domain: 'aliasmx.example' }, ctx());
    expect(alias.status).toBe('warn');
    expect(alias.findings.map((f) => f.code)).toEqual(['dns_mx_is_cname']);
    expect(alias.findings[0]!.message).toMatch(/Point the MX at mx\.provider\.example directly/);
    const ghost = await checkDns({ domain: 'ghostmx.example' }, ctx());
    expect(ghost.status).toBe('warn');
    expect(ghost.findings.map((f) => f.code)).toEqual(['dns_mx_host_unresolvable']);
    expect(ghost.findings[0]!.message).toContain('ghost.ghostmx.example');
  });

  it('NXDOMAIN at the end of a CNAME chain names the end of the chain, not the name asked (RFC 6604)', async () => {
    const answer = await checkDns({ domain: 'dangling.zone.example', type: 'A' }, ctx());
    expect(answer).toMatchObject({ outcome: 'nxdomain', status: 'fail' });
    expect(answer.findings.map((f) => f.code)).toEqual(['dns_cname_target_nxdomain']);
    expect(answer.summary).toMatch(/alias \(CNAME\) of gone\.nowhere\.example, which does not exist/);
    expect(answer.summary).not.toMatch(/^dangling\.zone\.example does not exist/);
  });

  it('refuses an unknown type with a 400 listing the allowed types', async () => {
    const error = await checkDns({ domain: 'zone.example', type: 'PTR' }, ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(restAnswerOf(error)?.status).toBe(400);
    expect((error as DomainError).detail).toContain('MX, TXT, A, AAAA, CNAME, NS, SOA, CAA');
  });
});
