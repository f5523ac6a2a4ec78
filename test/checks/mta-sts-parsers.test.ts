import { describe, expect, it } from 'vitest';
import { isMtaStsRecord, parseMtaStsRecord } from '../../resolvers/checks/mta-sts/parse-mta-sts-record.js';
import { parseMtaStsPolicy } from '../../resolvers/checks/mta-sts/parse-mta-sts-policy.js';
import { mxMatchesPattern } from '../../resolvers/checks/mta-sts/mx-matches-pattern.js';
import { isTlsRptRecord, parseTlsRptRecord } from '../../resolvers/checks/mta-sts/parse-tls-rpt-record.js';

describe('the _mta-sts record', () => {
  it('reads the id of a valid record, with spaces and a trailing separator', () => {
    expect(parseMtaStsRecord('v=STSv1;  id=20160831085700Z ;')).toEqual({ id: '20160831085700Z', problems: [], extensions: {} });
  });

  it('keeps extension fields', () => {
    expect(parseMtaStsRecord('v=STSv1; id=abc; ext.x=1').extensions).toEqual({ 'ext.x': '1' });
  });

  it.each([
    ['v=STSv1; id=2024-01-01', /letters and digits/],
    ['v=STSv1; id=', /letters and digits/],
    ['v=STSv1; id=abcdefghijklmnopqrstuvwxyz1234567', /letters and digits/],
    ['v=STSv1;', /no id field/],
    ['v=STSv1; id=a; id=b', /more than once/],
    ['v=STSv1; garbage', /not a name=value/],
  ])('refuses "%s"', (text, problem) => {
    const parsed = parseMtaStsRecord(text);
    expect(parsed.problems.join('; ')).toMatch(problem);
  });

  it('accepts an id of exactly 32 characters and no more', () => {
    expect(parseMtaStsRecord(`v=STSv1; id=${'a'.repeat(32)}`).id).toBe('a'.repeat(32));
    expect(parseMtaStsRecord(`v=STSv1; id=${'a'.repeat(33)}`).id).toBeNull();
  });

  it('recognises only records that start with the case-sensitive version', () => {
    expect(isMtaStsRecord('v=STSv1; id=1')).toBe(true);
    expect(isMtaStsRecord('v=stsv1; id=1')).toBe(false);
    expect(isMtaStsRecord('v=STSv10; id=1')).toBe(false);
    expect(isMtaStsRecord('v=spf1 -all')).toBe(false);
  });
});

describe('the policy file', () => {
  const valid = 'version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.example.net\r\nmx: backupmx.example.com\r\nmax_age: 604800\r\n';

  it('parses the example of RFC 8461 section 3.2', () => {
    expect(parseMtaStsPolicy(valid)).toEqual({
      policy: { version: 'STSv1', mode: 'enforce', mx: ['mail.example.com', '*.example.net', 'backupmx.example.com'], maxAge: 604800 },
      errors: [],
      warnings: [],
    });
  });

  it('accepts LF line ends and unknown extension keys', () => {
    const parsed = parseMtaStsPolicy('version: STSv1\nmode: testing\nmx: a.example.com\nmax_age: 86400\nfoo: bar\n');
    expect(parsed.policy?.mode).toBe('testing');
    expect(parsed.errors).toEqual([]);
  });

  it('allows a none policy without mx lines', () => {
    expect(parseMtaStsPolicy('version: STSv1\nmode: none\nmax_age: 86400\n').policy?.mode).toBe('none');
  });

  it.each([
    ['version: STSv2\nmode: enforce\nmx: a.example.com\nmax_age: 1', /not STSv1/],
    ['mode: enforce\nmx: a.example.com\nmax_age: 1', /no "version/],
    ['version: STSv1\nmode: Enforce\nmx: a.example.com\nmax_age: 1', /not enforce, testing or none/],
    ['version: STSv1\nmode: enforce\nmx: a.example.com', /no max_age/],
    ['version: STSv1\nmode: enforce\nmx: a.example.com\nmax_age: 31557601', /above the maximum/],
    ['version: STSv1\nmode: enforce\nmx: a.example.com\nmax_age: -5', /not a number/],
    ['version: STSv1\nmode: enforce\nmax_age: 86400', /no mx pattern/],
    ['version: STSv1\nmode: enforce\nmx: mail.*.example.com\nmax_age: 86400', /wildcard pattern/],
    ['version: STSv1\nmode: enforce\nmx: a.example.com\nmax_age: 86400\nthis line has no colon', /not a "key: value" line/],
  ])('refuses a policy (%#)', (text, error) => {
    const parsed = parseMtaStsPolicy(text);
    expect(parsed.policy).toBeNull();
    expect(parsed.errors.join('; ')).toMatch(error);
  });

  it('accepts the maximum max_age', () => {
    expect(parseMtaStsPolicy('version: STSv1\nmode: enforce\nmx: a.example.com\nmax_age: 31557600').policy?.maxAge).toBe(31557600);
  });

  it('uses the first of a repeated field and warns', () => {
    const parsed = parseMtaStsPolicy('version: STSv1\nmode: testing\nmode: enforce\nmx: a.example.com\nmax_age: 86400');
    expect(parsed.policy?.mode).toBe('testing');
    expect(parsed.warnings[0]).toMatch(/mode field appears more than once/);
  });
});

describe('matching MX hosts against patterns (RFC 8461 section 4.1)', () => {
  it.each([
    ['mail.example.com', 'mail.example.com', true],
    ['MAIL.Example.COM.', 'mail.example.com', true],
    ['mx1.example.net', '*.example.net', true],
    ['example.net', '*.example.net', false],
    ['a.mx1.example.net', '*.example.net', false],
    ['mail.example.org', 'mail.example.com', false],
    ['xexample.net', '*.example.net', false],
  ])('%s against %s is %s', (host, pattern, expected) => {
    expect(mxMatchesPattern(host, pattern)).toBe(expected);
  });
});

describe('the TLS-RPT record', () => {
  it('reads several report addresses', () => {
    expect(parseTlsRptRecord('v=TLSRPTv1; rua=mailto:reports@example.com,https://reporting.example.com/v1/tlsrpt')).toEqual({
      rua: ['mailto:reports@example.com', 'https://reporting.example.com/v1/tlsrpt'],
      problems: [],
    });
  });

  it('refuses a record without rua', () => {
    expect(parseTlsRptRecord('v=TLSRPTv1;').problems).toEqual(['the record has no rua field saying where reports go']);
  });

  it('refuses a report address that is neither mailto: nor https:', () => {
    expect(parseTlsRptRecord('v=TLSRPTv1; rua=http://reports.example.com').problems[0]).toMatch(/neither a mailto/);
  });

  it('recognises only records that start with the version', () => {
    expect(isTlsRptRecord('v=TLSRPTv1; rua=mailto:a@b.c')).toBe(true);
    expect(isTlsRptRecord('v=STSv1; id=1')).toBe(false);
  });
});
