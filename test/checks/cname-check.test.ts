import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { checkCname } from '../../resolvers/checks/cname/check-cname.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { dnsOnlyCheckContext } from '../support/dns-check-context.js';

const cname = (name: string, target: string, ttl = 300): ZoneRecord => ({ name, type: 'CNAME', data: target, ttl });
const soa = (name: string): ZoneRecord => ({
  name,
  type: 'SOA',
  data: { mname: `ns1.${name}`, rname: `hostmaster.${name}`, serial: 1, refresh: 3600, retry: 600, expire: 86400, minimum: 300 },
});

const longChain = Array.from({ length: 18 }, (_, i) => cname(`h${i}.long.example`, `h${i + 1}.long.example`));

const records: ZoneRecord[] = [
  soa('brand.example'),
  { name: 'brand.example', type: 'NS', data: 'ns1.dns.example' },
  cname('track.brand.example', 'custom.esp.example', 3600),
  cname('custom.esp.example', 'lb.esp.example', 60),
  { name: 'lb.esp.example', type: 'A', data: '192.0.2.1' },
  { name: 'lb.esp.example', type: 'AAAA', data: '2001:db8::1' },
  { name: 'direct.brand.example', type: 'A', data: '192.0.2.2' },
  cname('loop1.brand.example', 'loop2.brand.example'),
  cname('loop2.brand.example', 'loop1.brand.example'),
  cname('dangle.brand.example', 'gone.other-esp.example'),
  { name: 'other-esp.example', type: 'A', data: '192.0.2.3' },
  cname('noaddr.brand.example', 'txtonly.esp.example'),
  { name: 'txtonly.esp.example', type: 'TXT', data: ['nothing to see'] },
  // A CNAME at the apex of a registered domain.
  cname('apex.example', 'custom.esp.example'),
  // A CNAME at a name that also carries NS records (a delegation point).
  cname('delegated.brand.example', 'custom.esp.example'),
  { name: 'delegated.brand.example', type: 'NS', data: 'ns1.elsewhere.example' },
  // A CNAME to a zone apex: the SOA and NS the resolver returns are the target's, not the host's.
  cname('www.brand2.example', 'brand2.example'),
  soa('brand2.example'),
  { name: 'brand2.example', type: 'NS', data: 'ns1.dns.example' },
  { name: 'brand2.example', type: 'A', data: '192.0.2.4' },
  // Typed without a trailing dot in a panel that appends the zone.
  cname('click.brand.example', 'track.brand.example.brand.example'),
  cname('links.brand.example', 'sendgrid.net.brand.example'),
  ...longChain,
  { name: 'h18.long.example', type: 'A', data: '192.0.2.5' },
  cname('_acme-challenge.brand.example', 'custom.esp.example'),
  // A provider that publishes its target in mixed case (names are case-insensitive, RFC 4343).
  cname('track.case.example', 'LB.ESP-Track.NET'),
  { name: 'lb.esp-track.net', type: 'A', data: '192.0.2.6' },
  // Two hops, then a name that does not exist.
  cname('deep.brand.example', 'mid.esp.example'),
  cname('mid.esp.example', 'vanished.esp.example'),
];

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startTestDnsServer({ records, behaviours: { 'broken.brand.example': 'servfail', 'slow.esp.example': 'timeout' } });
  dns.setRecords([...records, cname('half.brand.example', 'slow.esp.example')]);
});
afterAll(() => dns.close());

const ctx = (): CheckContext => dnsOnlyCheckContext(dns);
const codes = (answer: { findings: readonly { code: string }[] }): string[] => answer.findings.map((f) => f.code).sort();

describe('checkCname', () => {
  it('follows the chain hop by hop to the final addresses', async () => {
    const answer = await checkCname({ host: 'Track.Brand.Example.' }, ctx());
    expect(answer).toMatchObject({ status: 'pass', host: 'track.brand.example', expected: null, matchesExpected: null, findings: [] });
    expect(answer.chain).toEqual([
      { name: 'track.brand.example', target: 'custom.esp.example', ttl: 3600 },
      { name: 'custom.esp.example', target: 'lb.esp.example', ttl: 60 },
    ]);
    expect(answer.final).toEqual({ name: 'lb.esp.example', addresses: ['192.0.2.1', '2001:db8::1'] });
    expect(answer.summary).toContain('track.brand.example -> custom.esp.example -> lb.esp.example');
  });

  it('matches an expected name the chain ends at or passes through', async () => {
    expect((await checkCname({ host: 'track.brand.example', expected: 'lb.esp.example' }, ctx())).matchesExpected).toBe(true);
    const through = await checkCname({ host: 'track.brand.example', expected: 'CUSTOM.esp.example' }, ctx());
    expect(through).toMatchObject({ matchesExpected: true, status: 'pass', expected: 'custom.esp.example' });
  });

  it('fails when the chain does not lead to the expected name, saying what to change', async () => {
    const answer = await checkCname({ host: 'track.brand.example', expected: 'track.other-esp.example' }, ctx());
    expect(answer).toMatchObject({ status: 'fail', matchesExpected: false });
    expect(codes(answer)).toEqual(['cname_unexpected_target']);
    expect(answer.findings[0]!.message).toContain('Change the CNAME at track.brand.example to point to track.other-esp.example');
  });

  it('reports a host without a CNAME, and one that does not exist', async () => {
    const direct = await checkCname({ host: 'direct.brand.example', expected: 'custom.esp.example' }, ctx());
    expect(direct).toMatchObject({ status: 'fail', chain: [], final: { name: 'direct.brand.example', addresses: ['192.0.2.2'] }, matchesExpected: false });
    expect(codes(direct)).toEqual(['cname_missing']);
    expect(direct.findings[0]!.message).toMatch(/resolves directly to 192\.0\.2\.2.*pointing to custom\.esp\.example/);
    const missing = await checkCname({ host: 'nothing.brand.example' }, ctx());
    expect(codes(missing)).toEqual(['cname_missing']);
    expect(missing.findings[0]!.message).toMatch(/NXDOMAIN/);
  });

  it('compares expected without case: LB.ESP-Track.NET is lb.esp-track.net (RFC 4343)', async () => {
    const mixed = await checkCname({ host: 'track.case.example', expected: 'LB.ESP-Track.NET' }, ctx());
    expect(mixed).toMatchObject({ matchesExpected: true, status: 'pass', final: { name: 'lb.esp-track.net', addresses: ['192.0.2.6'] } });
    const lower = await checkCname({ host: 'TRACK.Case.Example', expected: 'lb.esp-track.net.' }, ctx());
    expect(lower).toMatchObject({ matchesExpected: true, status: 'pass' });
  });

  it('NXDOMAIN at the end of a two-hop chain names the end of the chain, not the host asked (RFC 6604)', async () => {
    const answer = await checkCname({ host: 'deep.brand.example' }, ctx());
    expect(answer.final.name).toBe('vanished.esp.example');
    expect(codes(answer)).toEqual(['cname_dangling']);
    expect(answer.findings[0]!.message).toMatch(/ends at vanished\.esp\.example, which does not exist/);
    expect(answer.findings.map((f) => f.message).join(' ')).not.toMatch(/deep\.brand\.example does not exist/);
  });

  it('detects a loop', async () => {
    const answer = await checkCname({ host: 'loop1.brand.example' }, ctx());
    expect(answer.status).toBe('fail');
    expect(codes(answer)).toEqual(['cname_loop']);
    expect(answer.chain.map((h) => h.target)).toEqual(['loop2.brand.example', 'loop1.brand.example']);
  });

  it('detects a dangling target that does not exist', async () => {
    const answer = await checkCname({ host: 'dangle.brand.example' }, ctx());
    expect(codes(answer)).toEqual(['cname_dangling']);
    expect(answer.final).toEqual({ name: 'gone.other-esp.example', addresses: [] });
  });

  it('detects a target that exists but has no address', async () => {
    const answer = await checkCname({ host: 'noaddr.brand.example' }, ctx());
    expect(codes(answer)).toEqual(['cname_no_address']);
  });

  it('flags a CNAME at the apex of a registered domain', async () => {
    const answer = await checkCname({ host: 'apex.example' }, ctx());
    expect(codes(answer)).toEqual(['cname_at_apex']);
    expect(answer.findings[0]!.message).toMatch(/Use a subdomain such as track\.apex\.example/);
  });

  it('flags a CNAME at a name that has NS records of its own', async () => {
    const answer = await checkCname({ host: 'delegated.brand.example' }, ctx());
    expect(codes(answer)).toEqual(['cname_at_apex']);
  });

  it("does not mistake the SOA and NS of a CNAME target for the host's own", async () => {
    const answer = await checkCname({ host: 'www.brand2.example' }, ctx());
    expect(answer).toMatchObject({ status: 'pass', final: { name: 'brand2.example', addresses: ['192.0.2.4'] } });
  });

  it('recognises the zone appended twice by a DNS panel', async () => {
    const answer = await checkCname({ host: 'click.brand.example' }, ctx());
    expect(codes(answer)).toEqual(['cname_dangling', 'cname_zone_appended']);
    const appended = answer.findings.find((f) => f.code === 'cname_zone_appended')!;
    expect(appended.message).toContain('"track.brand.example."');
    const other = await checkCname({ host: 'links.brand.example' }, ctx());
    expect(other.findings.find((f) => f.code === 'cname_zone_appended')!.message).toContain('"sendgrid.net."');
  });

  it('does not flag an ordinary target inside the same zone as appended', async () => {
    const answer = await checkCname({ host: 'loop1.brand.example' }, ctx());
    expect(codes(answer)).not.toContain('cname_zone_appended');
  });

  it('stops after 16 hops', async () => {
    const answer = await checkCname({ host: 'h0.long.example' }, ctx());
    expect(answer.chain).toHaveLength(16);
    expect(codes(answer)).toEqual(['cname_chain_too_long']);
  });

  it('accepts underscore labels in the host', async () => {
    const answer = await checkCname({ host: '_acme-challenge.brand.example' }, ctx());
    expect(answer).toMatchObject({ status: 'pass', host: '_acme-challenge.brand.example' });
  });

  it('answers error when a lookup on the chain fails', async () => {
    const first = await checkCname({ host: 'broken.brand.example' }, ctx());
    expect(first.status).toBe('error');
    expect(codes(first)).toEqual(['cname_lookup_failed']);
    const later = await checkCname({ host: 'half.brand.example' }, ctx());
    expect(later).toMatchObject({ status: 'error', chain: [{ name: 'half.brand.example', target: 'slow.esp.example', ttl: 300 }] });
    expect(later.summary).toMatch(/failed at slow\.esp\.example/);
  });
});
