import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { checkSpf } from '../../resolvers/checks/spf/check-spf.js';
import type { CheckSpfAnswer } from '../../resolvers/checks/spf/check-spf.js';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import { startTestDnsServer } from '../support/dns-server.js';
import type { TestDnsServer, ZoneRecord } from '../support/dns-server.js';

const txt = (name: string, ...text: string[]): ZoneRecord => ({ name, type: 'TXT', data: text });
const a = (name: string, ip: string): ZoneRecord => ({ name, type: 'A', data: ip });

let dns: TestDnsServer;
beforeAll(async () => {
  const chain = Array.from({ length: 11 }, (_, i) =>
    txt(`p${i}.prov.test`, i < 10 ? `v=spf1 include:p${i + 1}.prov.test ~all` : 'v=spf1 ip4:198.51.100.0/24 ~all'),
  );
  dns = await startTestDnsServer({
    records: [
      txt('good.test', 'v=spf1 ip4:192.0.2.0/24 include:_spf.mailer.test mx ', '-all exp=why.good.test'),
      txt('good.test', 'google-site-verification=abc'),
      { name: 'good.test', type: 'MX', data: { preference: 10, exchange: 'mx.good.test' } },
      a('mx.good.test', '192.0.2.25'),
      txt('_spf.mailer.test', 'v=spf1 ip4:198.51.100.0/24 ip6:2001:db8:5::/48 ~all'),
      txt('why.good.test', '%{i} may not send for %{d}; see https://good.test/spf'),
      txt('long.test', 'v=spf1 include:p0.prov.test -all'),
      ...chain,
      txt('none.test', 'just some text'),
      txt('twice.test', 'v=spf1 -all'),
      txt('twice.test', 'v=spf1 ~all'),
      txt('open.test', 'v=spf1 ip4:192.0.2.1 +all'),
      txt('meh.test', 'v=spf1 ip4:192.0.2.1 ?all'),
      txt('noall.test', 'v=spf1 ip4:192.0.2.1 ptr'),
      txt('odd.test', 'v=spf1 ip4:192.0.2.1 ip4:192.0.2.300 foo=bar -all'),
      txt('dupe.test', 'v=spf1 redirect=good.test redirect=good.test'),
      txt('dangling.test', 'v=spf1 include:gone.test -all'),
      txt('voids.test', 'v=spf1 a:v1.test a:v2.test mx:v3.test -all'),
      txt('big.test', `v=spf1 ${Array.from({ length: 30 }, (_, i) => `ip4:198.51.${i}.0/24`).join(' ')} -all`),
      txt('slow-include.test', 'v=spf1 include:stuck.test -all'),
      txt('redir.test', 'v=spf1 redirect=good.test'),
      txt('xn--bcher-kva.test', 'v=spf1 -all'),
    ],
    behaviours: { 'timeout.test': 'timeout', 'stuck.test': 'servfail' },
  });
});
afterAll(() => dns.close());

function ctx(): CheckContext {
  return {
    dns: createDnsLookup({ servers: [dns.server], timeoutMs: 300, tries: 1, concurrency: 32 }),
    https: { get: () => Promise.reject(new Error('no HTTPS in SPF tests')) },
    now: () => new Date('2026-01-01T00:00:00Z'),
  };
}
const codes = (answer: CheckSpfAnswer): string[] => answer.findings.map((f) => f.code);

describe('checkSpf', () => {
  it('reads a valid record, expands its include and counts lookups', async () => {
    const answer = await checkSpf({ domain: 'Good.Test.' }, ctx());
    expect(answer).toMatchObject({ status: 'pass', domain: 'good.test', valid: true, lookupCount: 2, voidLookupCount: 0 });
    // TXT strings of one record are joined without a separator (RFC 7208 3.3).
    expect(answer.record).toBe('v=spf1 ip4:192.0.2.0/24 include:_spf.mailer.test mx -all exp=why.good.test');
    const include = answer.mechanisms.find((m) => m.mechanism === 'include');
    expect(include).toMatchObject({ qualifier: '+', value: '_spf.mailer.test', lookups: 1 });
    expect(include?.children).toMatchObject({ domain: '_spf.mailer.test', record: 'v=spf1 ip4:198.51.100.0/24 ip6:2001:db8:5::/48 ~all', lookups: 0 });
    expect(include?.children?.mechanisms.map((m) => m.mechanism)).toEqual(['ip4', 'ip6', 'all']);
    expect(answer.mechanisms.at(-1)).toMatchObject({ mechanism: 'exp', qualifier: null, value: 'why.good.test' });
    expect(answer.result).toBeUndefined();
  });

  it('evaluates an address: pass names the deciding term', async () => {
    const answer = await checkSpf({ domain: 'good.test', ip: '198.51.100.7' }, ctx());
    expect(answer).toMatchObject({ result: 'pass', matchedMechanism: 'include:_spf.mailer.test', explanation: null, ip: '198.51.100.7' });
    expect(codes(answer)).toContain('ip_authorized');
  });

  it('evaluates an address: fail carries the exp= explanation with its macros expanded', async () => {
    const answer = await checkSpf({ domain: 'good.test', ip: '203.0.113.9' }, ctx());
    expect(answer).toMatchObject({ status: 'fail', result: 'fail', matchedMechanism: '-all' });
    expect(answer.explanation).toBe('203.0.113.9 may not send for good.test; see https://good.test/spf');
    expect(codes(answer)).toContain('ip_not_authorized');
  });

  it('treats an IPv4-mapped IPv6 address as IPv4', async () => {
    const answer = await checkSpf({ domain: 'good.test', ip: '::ffff:192.0.2.25' }, ctx());
    expect(answer).toMatchObject({ result: 'pass', ip: '192.0.2.25', matchedMechanism: 'ip4:192.0.2.0/24' });
  });

  it('says more than 10 lookups breaks SPF and how to fix it', async () => {
    const answer = await checkSpf({ domain: 'long.test' }, ctx());
    expect(answer).toMatchObject({ status: 'fail', valid: false, lookupCount: 11 });
    const finding = answer.findings.find((f) => f.code === 'too_many_dns_lookups');
    expect(finding?.severity).toBe('error');
    expect(finding?.message).toMatch(/11 DNS lookups/);
    expect(finding?.message).toMatch(/permerror/);
    expect(finding?.message).toMatch(/flatten/);
    const withIp = await checkSpf({ domain: 'long.test', ip: '198.51.100.1' }, ctx());
    expect(withIp.result).toBe('permerror');
  });

  it('reports a missing record as missing, with a null record', async () => {
    const answer = await checkSpf({ domain: 'none.test' }, ctx());
    expect(answer).toMatchObject({ status: 'fail', record: null, valid: false, mechanisms: [] });
    expect(codes(answer)).toEqual(['spf_record_missing']);
  });

  it('reports a DNS timeout as an error, never as a missing record', async () => {
    const answer = await checkSpf({ domain: 'timeout.test', ip: '192.0.2.1' }, ctx());
    expect(answer).toMatchObject({ status: 'error', record: null, result: 'temperror' });
    expect(codes(answer)).toContain('dns_lookup_failed');
    expect(codes(answer)).not.toContain('spf_record_missing');
    expect(answer.summary).toMatch(/not a missing record/);
  });

  it('reports a failing include lookup as an error', async () => {
    const answer = await checkSpf({ domain: 'slow-include.test' }, ctx());
    expect(answer.status).toBe('error');
    expect(codes(answer)).toContain('dns_lookup_failed');
    expect(codes(answer)).not.toContain('include_without_spf');
  });

  it('flags several SPF records as a permanent error', async () => {
    const answer = await checkSpf({ domain: 'twice.test', ip: '192.0.2.1' }, ctx());
    expect(answer).toMatchObject({ status: 'fail', valid: false, record: null, result: 'permerror' });
    expect(codes(answer)).toContain('multiple_spf_records');
  });

  it('flags +all and ?all', async () => {
    const open = await checkSpf({ domain: 'open.test' }, ctx());
    expect(open.findings.find((f) => f.code === 'plus_all')?.severity).toBe('error');
    const meh = await checkSpf({ domain: 'meh.test' }, ctx());
    expect(meh.findings.find((f) => f.code === 'neutral_all')?.severity).toBe('warning');
    expect(meh.status).toBe('warn');
  });

  it('flags a record with neither all nor redirect, and the deprecated ptr', async () => {
    const answer = await checkSpf({ domain: 'noall.test' }, ctx());
    expect(codes(answer)).toEqual(expect.arrayContaining(['no_all_mechanism', 'ptr_mechanism']));
    expect(answer.lookupCount).toBe(1);
  });

  it('points a syntax error at the offending term, and notes unknown modifiers', async () => {
    const answer = await checkSpf({ domain: 'odd.test' }, ctx());
    expect(answer.valid).toBe(false);
    const syntax = answer.findings.find((f) => f.code === 'syntax_error');
    expect(syntax?.message).toContain('ip4:192.0.2.300');
    expect(answer.findings.find((f) => f.code === 'unknown_modifier')?.severity).toBe('info');
    expect(answer.mechanisms.find((m) => m.mechanism === 'invalid')?.term).toBe('ip4:192.0.2.300');
  });

  it('flags a repeated redirect as a permanent error', async () => {
    const answer = await checkSpf({ domain: 'dupe.test', ip: '192.0.2.1' }, ctx());
    expect(codes(answer)).toContain('duplicate_modifier');
    expect(answer).toMatchObject({ valid: false, result: 'permerror' });
  });

  it('flags an include of a domain without SPF', async () => {
    const answer = await checkSpf({ domain: 'dangling.test' }, ctx());
    expect(codes(answer)).toContain('include_without_spf');
    expect(answer.valid).toBe(false);
  });

  it('counts void lookups and fails over two', async () => {
    const answer = await checkSpf({ domain: 'voids.test' }, ctx());
    expect(answer.voidLookupCount).toBe(3);
    expect(codes(answer)).toContain('too_many_void_lookups');
    expect(answer.valid).toBe(false);
  });

  it('warns about a record too long for one UDP answer', async () => {
    const answer = await checkSpf({ domain: 'big.test' }, ctx());
    expect(codes(answer)).toContain('record_too_long');
    expect(answer.valid).toBe(true);
  });

  it('follows a redirect and judges the record it leads to', async () => {
    const answer = await checkSpf({ domain: 'redir.test', ip: '192.0.2.77' }, ctx());
    expect(answer).toMatchObject({ result: 'pass', matchedMechanism: 'ip4:192.0.2.0/24', lookupCount: 3, valid: true });
    expect(codes(answer)).not.toContain('no_all_mechanism');
    expect(answer.mechanisms[0]?.children?.domain).toBe('good.test');
  });

  it('echoes an internationalised domain in both forms', async () => {
    const answer = await checkSpf({ domain: 'bücher.test' }, ctx());
    expect(answer).toMatchObject({ domain: 'xn--bcher-kva.test', domainUnicode: 'bücher.test', record: 'v=spf1 -all' });
  });

  it('refuses a bad ip, sender or domain with a 400 that says what to pass', async () => {
    expect(restAnswerOf(await checkSpf({ domain: 'good.test', ip: '300.1.1.1' }, ctx()).catch((e: unknown) => e))).toMatchObject({
      status: 400,
      code: 'invalid_ip',
    });
    expect(restAnswerOf(await checkSpf({ domain: 'good.test', ip: '192.0.2.1', sender: 'nobody' }, ctx()).catch((e: unknown) => e))).toMatchObject({
      status: 400,
      code: 'invalid_sender',
    });
    const error = await checkSpf({ domain: 'user@good.test' }, ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(restAnswerOf(error)?.status).toBe(400);
  });

  it('answers a JSON-serialisable object', async () => {
    const answer = await checkSpf({ domain: 'good.test', ip: '203.0.113.9' }, ctx());
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });
});
