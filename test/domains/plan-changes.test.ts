import { describe, expect, it } from 'vitest';
import { planChanges } from '../../resolvers/domains/publishing/plan-changes.js';
import type { DnsRecord } from '../../clients/dns-publishing/dns-publisher.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';

const mx = (value: string, priority: number, name = 'example.com'): DnsRecord => ({ type: 'MX', name, value, ttl: 3600, priority });
const txt = (name: string, value: string): DnsRecord => ({ type: 'TXT', name, value, ttl: 3600 });

/** Applies a plan to a list of records as a publisher would: each replaced record removed, each record added. */
function apply(existing: readonly DnsRecord[], wanted: readonly DnsRecord[]): DnsRecord[] {
  let records = [...existing];
  for (const change of planChanges(wanted, records)) {
    records = records.filter((r) => !(change.replaces ?? []).some((x) => x.name === r.name && x.type === r.type && x.value === r.value));
    records.push(change.record);
  }
  return records;
}

describe('planning the changes that publish a setup', () => {
  const wanted = [
    mx('smtp.google.com', 1),
    txt('example.com', 'v=spf1 include:mailgun.org include:_spf.google.com ~all'),
    txt('_dmarc.example.com', 'v=DMARC1; p=none; rua=mailto:dmarc@reports.example.net'),
    txt('google._domainkey.example.com', 'v=DKIM1; k=rsa; p=MIIB'),
    txt('example.com', 'inbox-verification=abc'),
  ];
  const existing = [
    mx('mx1.other-provider.net', 10),
    mx('mx2.other-provider.net', 20),
    txt('example.com', 'v=spf1 include:mailgun.org ~all'),
    txt('example.com', 'google-site-verification=keepme'),
    txt('_dmarc.example.com', 'v=DMARC1; p=none'),
    { type: 'A', name: 'example.com', value: '192.0.2.1', ttl: 300 },
  ];

  it('replaces the MX set, the SPF and the wrong DMARC, and adds DKIM and the proof TXT', () => {
    expect(planChanges(wanted, existing)).toEqual([
      { action: 'replace', record: wanted[0], replaces: [existing[0], existing[1]] },
      { action: 'replace', record: wanted[1], replaces: [existing[2]] },
      { action: 'add', record: wanted[4] },
      { action: 'replace', record: wanted[2], replaces: [existing[4]] },
      { action: 'add', record: wanted[3] },
    ]);
  });

  it('never removes a record it does not replace (another TXT, an A record)', () => {
    const after = apply(existing, wanted);
    expect(after).toContainEqual(txt('example.com', 'google-site-verification=keepme'));
    expect(after).toContainEqual({ type: 'A', name: 'example.com', value: '192.0.2.1', ttl: 300 });
    expect(after.filter((r) => r.type === 'TXT' && r.value.startsWith('v=spf1'))).toHaveLength(1);
  });

  it('is idempotent: once applied, the next plan is empty, whatever the TTLs served', () => {
    const after = apply(existing, wanted).map((r) => ({ ...r, ttl: 300 }));
    expect(planChanges(wanted, after)).toEqual([]);
  });

  it('two SPF records (a conflict) become the one wanted; names and hosts compare without case or final dot', () => {
    const spf = txt('example.com', 'v=spf1 a mx include:_spf.google.com ~all');
    const two = [txt('Example.COM.', 'v=spf1 a ~all'), txt('example.com', 'v=spf1 mx -all')];
    expect(planChanges([spf], two)).toEqual([{ action: 'replace', record: spf, replaces: [txt('example.com', 'v=spf1 a ~all'), two[1]] }]);
    expect(planChanges([mx('smtp.google.com', 1)], [mx('SMTP.Google.com.', 1, 'EXAMPLE.com')])).toEqual([]);
  });

  it('an MX set that differs in priority only is replaced; an MX set wanted where none is, added', () => {
    expect(planChanges([mx('smtp.google.com', 1)], [mx('smtp.google.com', 5)])).toEqual([
      { action: 'replace', record: mx('smtp.google.com', 1), replaces: [mx('smtp.google.com', 5)] },
    ]);
    expect(planChanges([mx('a.example.net', 1), mx('b.example.net', 5)], [])).toEqual([
      { action: 'add', record: mx('a.example.net', 1) },
      { action: 'add', record: mx('b.example.net', 5) },
    ]);
  });

  it('a CNAME replaces another CNAME at its name; the same CNAME is left alone', () => {
    const cname = { type: 'CNAME', name: 'www.example.com', value: 'forward.example.net', ttl: 300 };
    expect(planChanges([cname], [{ ...cname, value: 'old.example.net' }])).toEqual([
      { action: 'replace', record: cname, replaces: [{ ...cname, value: 'old.example.net' }] },
    ]);
    expect(planChanges([cname], [{ ...cname, value: 'Forward.Example.net.' }])).toEqual([]);
  });

  it('never drops a term of a replaced SPF record, whatever the caller wanted: a 409 before anything is planned', () => {
    const spf = txt('example.com', 'v=spf1 include:_spf.google.com ~all');
    const error = (() => {
      try {
        planChanges([spf], [txt('example.com', 'v=spf1 include:spf.esp-a.net include:_spf.google.com ~all')]);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(restAnswerOf(error)).toMatchObject({ status: 409, code: 'zone_changed', detail: expect.stringContaining('would drop include:spf.esp-a.net') });
    // The all qualifier and the case of a term are not a loss.
    expect(() =>
      planChanges([txt('example.com', 'v=spf1 IP4:192.0.2.1 include:_spf.google.com -all')], [txt('example.com', 'v=spf1 ip4:192.0.2.1 ~all')]),
    ).not.toThrow();
  });

  it('never lowers a DMARC policy or drops a report address', () => {
    const ours = 'mailto:dmarc@reports.example.net';
    const at = (value: string) => txt('_dmarc.example.com', value);
    expect(() => planChanges([at(`v=DMARC1; p=none; rua=${ours}`)], [at('v=DMARC1; p=reject; rua=mailto:agg@example.com')])).toThrow(/would lower p=reject/);
    expect(() => planChanges([at(`v=DMARC1; p=reject; rua=${ours}`)], [at('v=DMARC1; p=reject; rua=mailto:agg@example.com')])).toThrow(
      /would drop the report address mailto:agg@example.com/,
    );
    expect(() =>
      planChanges([at(`v=DMARC1; p=reject; sp=none; rua=mailto:agg@example.com,${ours}`)], [at('v=DMARC1; p=reject; rua=mailto:agg@example.com')]),
    ).toThrow(/would lower sp=reject/);
    expect(planChanges([at(`v=DMARC1; p=reject; rua=mailto:agg@example.com,${ours}`)], [at('v=DMARC1; p=reject; rua=mailto:agg@example.com')])).toHaveLength(1);
  });

  it('plans nothing at a name that holds a CNAME (a hosted DMARC policy): a 409 naming the alias', () => {
    const alias = { type: 'CNAME', name: '_dmarc.example.com', value: 'example.com.dmarc.host.example', ttl: 300 };
    expect(() => planChanges([txt('_dmarc.example.com', 'v=DMARC1; p=none; rua=mailto:dmarc@reports.example.net')], [alias])).toThrow(
      expect.objectContaining({ code: 'cname_at_name', detail: expect.stringContaining('alias (CNAME) of example.com.dmarc.host.example') }),
    );
  });
});
