import { describe, expect, it } from 'vitest';
import { mergeSpf } from '../../resolvers/domains/setup/merge-spf.js';
import { mergeDmarc } from '../../resolvers/domains/setup/merge-dmarc.js';

const G = '_spf.google.com';

describe('merging Google into the customer’s SPF', () => {
  it('one record: every term kept as written, the include before all or redirect; unchanged when already there', () => {
    expect(mergeSpf(['v=spf1 ip4:192.0.2.1 include:spf.esp.test exp=explain.%{d} -all'], G)).toEqual({
      ok: true,
      value: 'v=spf1 ip4:192.0.2.1 include:spf.esp.test exp=explain.%{d} include:_spf.google.com -all',
      unchanged: false,
    });
    expect(mergeSpf(['v=spf1 a redirect=_spf.esp.test'], G)).toMatchObject({ value: 'v=spf1 a include:_spf.google.com redirect=_spf.esp.test' });
    expect(mergeSpf(['v=spf1 +INCLUDE:_spf.google.com. ~all'], G)).toEqual({ ok: true, value: 'v=spf1 +INCLUDE:_spf.google.com. ~all', unchanged: true });
    expect(mergeSpf([], G)).toEqual({ ok: true, value: 'v=spf1 include:_spf.google.com ~all', unchanged: false });
  });

  it('two records: combined whatever order DNS gave them, each mechanism once, the most lenient all', () => {
    const a = 'v=spf1 include:spf.esp-a.test mx -all';
    const b = 'v=spf1 ip4:192.0.2.10 MX ~all';
    const one = mergeSpf([a, b], G);
    expect(one).toEqual({ ok: true, value: 'v=spf1 include:spf.esp-a.test mx ip4:192.0.2.10 include:_spf.google.com ~all', unchanged: false });
    expect(mergeSpf([b, a], G)).toEqual(one);
    expect(mergeSpf(['v=spf1 a -all', 'v=spf1 include:_spf.google.com ?all'], G)).toMatchObject({ value: 'v=spf1 a include:_spf.google.com ?all' });
  });

  it('two records that cannot be combined without choosing for the customer are refused naming what to remove', () => {
    expect(mergeSpf(['v=spf1 redirect=_spf.esp.test', 'v=spf1 a ~all'], G)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('redirect=_spf.esp.test'),
    });
    expect(mergeSpf(['v=spf1 a exp=one.test ~all', 'v=spf1 mx exp=two.test ~all'], G)).toMatchObject({ ok: false, reason: expect.stringContaining('exp=') });
    expect(mergeSpf(['v=spf1 +all', 'v=spf1 a ~all'], G)).toMatchObject({ ok: false, reason: expect.stringContaining('+all') });
  });
});

describe('merging our report address into the customer’s DMARC', () => {
  const ours = 'dmarc@reports.example.net';
  it('keeps the policy and every tag, adding our address to rua', () => {
    expect(mergeDmarc('v=DMARC1; p=reject; sp=quarantine; pct=50; rua=mailto:agg@example.com!10m; ruf=mailto:f@example.com; fo=1', ours)).toBe(
      'v=DMARC1; p=reject; sp=quarantine; pct=50; rua=mailto:agg@example.com!10m,mailto:dmarc@reports.example.net; ruf=mailto:f@example.com; fo=1',
    );
    expect(mergeDmarc('v=DMARC1; p=quarantine; adkim=s', ours)).toBe('v=DMARC1; p=quarantine; rua=mailto:dmarc@reports.example.net; adkim=s');
    expect(mergeDmarc('v=DMARC1; p=none; rua=MAILTO:DMARC@reports.example.net', ours)).toBe('v=DMARC1; p=none; rua=MAILTO:DMARC@reports.example.net');
  });
});
