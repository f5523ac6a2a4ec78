import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { checkDmarc, dmarcEnforcement } from '../../resolvers/checks/dmarc/check-dmarc.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { dnsOnlyCheckContext } from '../support/dns-check-context.js';

const txt = (name: string, ...texts: string[]): ZoneRecord[] => texts.map((t) => ({ name, type: 'TXT', data: [t] }));

const records: ZoneRecord[] = [
  ...txt('_dmarc.strict.example', 'v=DMARC1; p=reject; rua=mailto:dmarc@strict.example; adkim=s; aspf=s'),
  ...txt('_dmarc.monitor.example', 'v=DMARC1; p=none; rua=mailto:dmarc@monitor.example'),
  ...txt('_dmarc.weak-sub.example', 'v=DMARC1; p=reject; sp=none; rua=mailto:dmarc@weak-sub.example'),
  ...txt('_dmarc.sampled.example', 'v=DMARC1; p=quarantine; pct=25; rua=mailto:dmarc@sampled.example'),
  ...txt('_dmarc.noreports.example', 'v=DMARC1; p=reject'),
  ...txt('_dmarc.twice.example', 'v=DMARC1; p=reject', 'v=DMARC1; p=none'),
  ...txt('_dmarc.broken.example', 'v=DMARC1; p=reject; adkim=x; pct=150'),
  ...txt('_dmarc.fallback.example', 'v=DMARC1; p=rejected; rua=mailto:dmarc@fallback.example'),
  // Reports to two other organisations: one authorises, one does not.
  ...txt('_dmarc.thirdparty.example', 'v=DMARC1; p=reject; rua=mailto:a@reports.vendor.example,mailto:b@other.example; ruf=mailto:f@thirdparty.example'),
  ...txt('thirdparty.example._report._dmarc.reports.vendor.example', 'v=DMARC1'),
  { name: 'other.example', type: 'A', data: '192.0.2.5' },
  // Split across character-strings, as long records are.
  { name: '_dmarc.split.example', type: 'TXT', data: ['v=DMARC1; p=quar', 'antine; rua=mailto:d@split.example'] },
  // Subdomain without its own record: the organisational domain's applies.
  ...txt('_dmarc.parent.example', 'v=DMARC1; p=reject; sp=quarantine; rua=mailto:dmarc@parent.example'),
  { name: 'mail.parent.example', type: 'A', data: '192.0.2.6' },
  { name: 'nodmarc.example', type: 'A', data: '192.0.2.7' },
  // An unrelated TXT at _dmarc is not a DMARC record.
  ...txt('_dmarc.other-txt.example', 'some-verification=123'),
  ...txt('_dmarc.bis.example', 'v=DMARC1; p=reject; np=none; t=y; psd=n; rua=mailto:d@bis.example; ri=3600; rf=afrf; fo=1:d; foo=bar'),
];

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startTestDnsServer({ records, behaviours: { '_dmarc.down.example': 'servfail', 'flaky.example._report._dmarc.vendor.example': 'timeout' } });
  dns.setRecords([...records, ...txt('_dmarc.flaky.example', 'v=DMARC1; p=reject; rua=mailto:x@vendor.example')]);
});
afterAll(() => dns.close());

const ctx = (): CheckContext => dnsOnlyCheckContext(dns);
const codes = (answer: { findings: readonly { code: string }[] }): string[] => answer.findings.map((f) => f.code);

describe('checkDmarc', () => {
  it('passes an enforcing record with reports and explains every tag', async () => {
    const answer = await checkDmarc({ domain: 'Strict.Example' }, ctx());
    expect(answer).toMatchObject({
      status: 'pass',
      domain: 'strict.example',
      valid: true,
      source: '_dmarc.strict.example',
      inherited: false,
      organizationalDomain: 'strict.example',
      policy: 'reject',
      subdomainPolicy: 'reject',
      effectivePolicy: 'reject',
      pct: 100,
      adkim: 's',
      aspf: 's',
      rua: ['mailto:dmarc@strict.example'],
      ruf: [],
    });
    expect(answer.findings).toEqual([]);
    expect(answer.tags.map((t) => t.tag)).toEqual(['v', 'p', 'rua', 'adkim', 'aspf']);
    expect(answer.tags.find((t) => t.tag === 'p')!.meaning).toMatch(/refuse failing mail/);
    expect(answer.tags.find((t) => t.tag === 'adkim')!.meaning).toMatch(/strict/);
    expect(dmarcEnforcement(answer)).toEqual({ enforced: true, reasons: [] });
  });

  it('warns that p=none only monitors', async () => {
    const answer = await checkDmarc({ domain: 'monitor.example' }, ctx());
    expect(answer.status).toBe('warn');
    expect(codes(answer)).toEqual(['dmarc_policy_none']);
    expect(dmarcEnforcement(answer).enforced).toBe(false);
  });

  it('warns when the subdomain policy is weaker than p', async () => {
    const answer = await checkDmarc({ domain: 'weak-sub.example' }, ctx());
    expect(codes(answer)).toEqual(['dmarc_subdomain_policy_weaker']);
    expect(answer.subdomainPolicy).toBe('none');
    expect(dmarcEnforcement(answer).reasons.join(' ')).toMatch(/sp=none/);
  });

  it('warns when pct is under 100 and marks pct as removed by RFC 9989', async () => {
    const answer = await checkDmarc({ domain: 'sampled.example' }, ctx());
    expect(codes(answer)).toEqual(['dmarc_pct_partial']);
    expect(answer.pct).toBe(25);
    expect(answer.tags.find((t) => t.tag === 'pct')!.meaning).toMatch(/RFC 9989.*removed/);
    expect(dmarcEnforcement(answer).enforced).toBe(false);
  });

  it('warns when there is no rua', async () => {
    const answer = await checkDmarc({ domain: 'noreports.example' }, ctx());
    expect(answer.status).toBe('warn');
    expect(codes(answer)).toEqual(['dmarc_no_rua']);
  });

  it('fails on two DMARC records', async () => {
    const answer = await checkDmarc({ domain: 'twice.example' }, ctx());
    expect(answer).toMatchObject({ status: 'fail', valid: false, policy: null });
    expect(codes(answer)).toEqual(['dmarc_multiple_records']);
  });

  it('fails on syntax errors, one finding per bad tag naming it', async () => {
    const answer = await checkDmarc({ domain: 'broken.example' }, ctx());
    expect(answer).toMatchObject({ status: 'fail', valid: false, policy: null, record: 'v=DMARC1; p=reject; adkim=x; pct=150' });
    expect(codes(answer)).toEqual(['dmarc_syntax_error', 'dmarc_syntax_error']);
    expect(answer.findings[0]!.message).toMatch(/^Tag adkim:/);
    expect(answer.findings[1]!.message).toMatch(/^Tag pct:/);
    expect(answer.tags.map((t) => t.tag)).toContain('adkim');
  });

  it('reports the p=none fallback when p is invalid but rua is valid', async () => {
    const answer = await checkDmarc({ domain: 'fallback.example' }, ctx());
    expect(answer).toMatchObject({ status: 'fail', valid: false, policy: 'none' });
    expect(answer.findings[0]!.message).toMatch(/p=rejected.*treat the whole record as p=none/s);
  });

  it('checks that external report destinations authorise the reports', async () => {
    const answer = await checkDmarc({ domain: 'thirdparty.example' }, ctx());
    expect(codes(answer)).toEqual(['dmarc_report_unauthorized']);
    expect(answer.findings[0]!.message).toContain('thirdparty.example._report._dmarc.other.example');
    expect(answer.reportDestinations).toEqual([
      expect.objectContaining({ tag: 'rua', destination: 'reports.vendor.example', external: true, authorized: true }),
      expect.objectContaining({ tag: 'rua', destination: 'other.example', external: true, authorized: false }),
      expect.objectContaining({ tag: 'ruf', destination: 'thirdparty.example', external: false, authorized: true, authorizationRecord: null }),
    ]);
  });

  it('says when an authorisation lookup failed instead of calling it unauthorised', async () => {
    const answer = await checkDmarc({ domain: 'flaky.example' }, ctx());
    expect(codes(answer)).toEqual(['dmarc_report_authorization_unknown']);
    expect(answer.reportDestinations[0]!.authorized).toBeNull();
  });

  it('joins a record split over several character-strings', async () => {
    const answer = await checkDmarc({ domain: 'split.example' }, ctx());
    expect(answer).toMatchObject({ valid: true, policy: 'quarantine' });
  });

  it('falls back to the organisational domain and says so', async () => {
    const answer = await checkDmarc({ domain: 'mail.parent.example' }, ctx());
    expect(answer).toMatchObject({
      status: 'warn',
      valid: true,
      inherited: true,
      source: '_dmarc.parent.example',
      organizationalDomain: 'parent.example',
      policy: 'reject',
      subdomainPolicy: 'quarantine',
      effectivePolicy: 'quarantine',
    });
    expect(codes(answer)).toEqual(['dmarc_inherited', 'dmarc_subdomain_policy_weaker']);
    expect(answer.summary).toMatch(/no DMARC record of its own; parent\.example's record applies/);
  });

  it('fails when neither the domain nor its organisational domain has a record', async () => {
    const answer = await checkDmarc({ domain: 'www.nodmarc.example' }, ctx());
    expect(answer).toMatchObject({ status: 'fail', valid: false, source: null, record: null });
    expect(codes(answer)).toEqual(['dmarc_missing']);
    expect(answer.findings[0]!.message).toContain('_dmarc.nodmarc.example');
  });

  it('ignores a TXT record at _dmarc that is not DMARC', async () => {
    const answer = await checkDmarc({ domain: 'other-txt.example' }, ctx());
    expect(codes(answer)).toEqual(['dmarc_missing']);
  });

  it('answers error, not missing, when the lookup fails', async () => {
    const answer = await checkDmarc({ domain: 'down.example' }, ctx());
    expect(answer.status).toBe('error');
    expect(codes(answer)).toEqual(['dmarc_lookup_failed']);
  });

  it('reads the RFC 9989 tags and explains removed and unknown tags', async () => {
    const answer = await checkDmarc({ domain: 'bis.example' }, ctx());
    expect(answer).toMatchObject({ np: 'none', t: 'y', psd: 'n', ri: 3600, fo: ['1', 'd'] });
    expect(codes(answer).sort()).toEqual(['dmarc_nonexistent_policy_weaker', 'dmarc_test_mode', 'dmarc_unknown_tag']);
    const meaning = Object.fromEntries(answer.tags.map((t) => [t.tag, t.meaning]));
    expect(meaning.ri).toMatch(/1 hours.*RFC 9989/);
    expect(meaning.rf).toMatch(/afrf.*RFC 9989/);
    expect(meaning.t).toMatch(/one step less/);
    expect(meaning.foo).toMatch(/Not a DMARC tag/);
    expect(meaning.np).toMatch(/do not exist/);
  });
});
