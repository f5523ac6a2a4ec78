import { readSettings } from '../../config/settings.js';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import { checkDeliverability } from '../../resolvers/checks/deliverability/check-deliverability.js';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import type { DnsLookup } from '../../clients/dns/dns-types.js';
import type { FullCheckContext } from '../../resolvers/checks/full-check-context.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { rdapDomain, startTestRdapServer, type TestRdapServer } from '../support/rdap-server.js';
import { dnsblTestPoints } from '../support/dnsbl-test-points.js';

const NOW = new Date('2026-09-26T00:00:00Z');
const rsa2048 = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

const txt = (name: string, text: string): ZoneRecord => ({ name, type: 'TXT', data: [text] });
const a = (name: string, address: string): ZoneRecord => ({ name, type: 'A', data: address });

interface Setup {
  readonly spf?: boolean;
  readonly dmarc?: string | null;
  readonly mxAddress?: string;
}

/** A domain set up the way a cold-email sender should be, with parts left out or changed on request. */
function sender(domain: string, setup: Setup = {}): ZoneRecord[] {
  const records: ZoneRecord[] = [
    txt(`google._domainkey.${domain}`, `v=DKIM1; k=rsa; p=${rsa2048}`),
    { name: domain, type: 'MX', data: { preference: 10, exchange: `mx.${domain}` } },
    a(`mx.${domain}`, setup.mxAddress ?? '192.0.2.1'),
  ];
  if (setup.spf !== false) records.push(txt(domain, 'v=spf1 include:_spf.provider.example ~all'));
  const dmarc = setup.dmarc === undefined ? `v=DMARC1; p=reject; rua=mailto:dmarc@${domain}` : setup.dmarc;
  if (dmarc !== null) records.push(txt(`_dmarc.${domain}`, dmarc));
  return records;
}

const records: ZoneRecord[] = [
  txt('_spf.provider.example', 'v=spf1 include:_netblocks.provider.example ~all'),
  txt('_netblocks.provider.example', 'v=spf1 ip4:198.51.100.0/24 ip6:2001:db8::/48 -all'),
  ...sender('good.example'),
  ...sender('nodmarc.example', { dmarc: null }),
  ...sender('bare.example', { dmarc: null, spf: false }),
  ...sender('monitor.example', { dmarc: 'v=DMARC1; p=none; rua=mailto:dmarc@monitor.example' }),
  // The MX host's address is on Spamhaus ZEN (SBL) and on a smaller list.
  ...sender('listed.example', { mxAddress: '192.0.2.99' }),
  a('99.2.0.192.zen.spamhaus.org', '127.0.0.2'),
  a('99.2.0.192.all.s5h.net', '127.0.0.2'),
  ...sender('slowdmarc.example'),
  ...sender('young.example'),
  { name: 'nomail.example', type: 'MX', data: { preference: 0, exchange: '.' } },
  txt('nomail.example', 'v=spf1 -all'),
  txt('_dmarc.nomail.example', 'v=DMARC1; p=reject; rua=mailto:dmarc@nomail.example'),
  txt(`google._domainkey.nomail.example`, `v=DKIM1; k=rsa; p=${rsa2048}`),
  ...dnsblTestPoints(),
  ...sender('halfdown.example'),
];

const registered = (name: string, created = '2015-03-01T12:00:00Z') => rdapDomain(name, 'Example Registrar, Inc.', created, '2027-09-01T12:00:00Z');

let dns: TestDnsServer;
let rdap: TestRdapServer;
beforeAll(async () => {
  dns = await startTestDnsServer({
    records,
    behaviours: {
      '_dmarc.slowdmarc.example': 'timeout',
      // A DNSSEC-bogus zone: a validating resolver answers SERVFAIL for every name in it.
      'bogus.example': 'servfail',
      '*.bogus.example': 'servfail',
      // A lame delegation: no name server answers for the zone.
      'lame.example': 'timeout',
      '*.lame.example': 'timeout',
      // Only SPF and DKIM fail: 40% of the weight.
      'halfdown.example/TXT': 'servfail',
      '*._domainkey.halfdown.example': 'servfail',
      '_domainkey.halfdown.example': 'servfail',
    },
  });
  rdap = await startTestRdapServer({
    tlds: ['example'],
    domains: {
      ...Object.fromEntries(
        ['good', 'nodmarc', 'bare', 'monitor', 'listed', 'slowdmarc', 'nomail', 'bogus', 'lame', 'halfdown'].map((d) => [
          `${d}.example`,
          registered(`${d}.example`),
        ]),
      ),
      'young.example': registered('young.example', '2026-09-16T00:00:00Z'),
      'everything.example': 503,
    },
  });
});
afterAll(async () => {
  await Promise.all([dns.close(), rdap.close()]);
});

function ctx(): FullCheckContext {
  return {
    dns: createDnsLookup({ servers: [dns.server], timeoutMs: 300, tries: 1, concurrency: 64 }),
    https: { get: () => Promise.reject(new Error('the grade fetches nothing over HTTPS')) },
    now: () => NOW,
    blacklist: { spamhausDqsKey: null },
    registration: readSettings({ RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl, REGISTRATION_TIMEOUT_MS: '1000' }).registration,
    googleTenancy: { probe: () => Promise.reject(new Error('the grade does not probe Google')) },
  };
}

describe('check-deliverability', () => {
  it('a well-configured domain grades A with every part scored in full and no fixes', async () => {
    const answer = await checkDeliverability({ domain: 'Good.Example.' }, ctx());
    expect(answer).toMatchObject({ domain: 'good.example', grade: 'A', score: 100, status: 'pass', notScored: [], caps: [], fixes: [] });
    for (const part of Object.values(answer.breakdown)) expect(part).toMatchObject({ score: 1, status: 'pass', cap: null });
    expect(answer.breakdown.dmarc).toMatchObject({ weight: 25, effectiveWeight: 25, points: 25 });
    expect(answer.checks.spf).toMatchObject({ check: 'check-spf', status: 'pass' });
    expect(answer.summary).toBe('good.example grades A (100/100).');
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });

  it('a missing DMARC record costs its 25 points and caps the grade at C', async () => {
    const answer = await checkDeliverability({ domain: 'nodmarc.example' }, ctx());
    expect(answer).toMatchObject({ grade: 'C', score: 75, status: 'warn' });
    expect(answer.breakdown.dmarc).toMatchObject({ score: 0, status: 'fail', cap: 'C', points: 0 });
    expect(answer.fixes).toEqual([expect.objectContaining({ part: 'dmarc', code: 'dmarc_missing', points: 25, capsGradeAt: 'C' })]);
  });

  it('missing SPF and DMARC lower the grade to F, with the DMARC fix (25 points) before the SPF fix (20)', async () => {
    const answer = await checkDeliverability({ domain: 'bare.example' }, ctx());
    expect(answer).toMatchObject({ grade: 'F', score: 55, status: 'fail' });
    expect(answer.fixes.map((f) => [f.part, f.points])).toEqual([
      ['dmarc', 25],
      ['spf', 20],
    ]);
    expect(answer.summary).toBe('bare.example grades F (55/100); fixing DMARC adds the most (25 points).');
    expect(answer.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['spf_missing', 'dmarc_missing']));
  });

  it('p=none scores 90 but caps the grade at B, and the summary says why', async () => {
    const answer = await checkDeliverability({ domain: 'monitor.example' }, ctx());
    expect(answer).toMatchObject({ grade: 'B', score: 90 });
    expect(answer.caps).toEqual([expect.objectContaining({ part: 'dmarc', grade: 'B', code: 'dmarc_policy_none' })]);
    expect(answer.summary).toMatch(/^monitor\.example grades B \(90\/100\), capped at B from A: /);
    expect(answer.fixes[0]).toMatchObject({ part: 'dmarc', points: 10 });
  });

  it('a mail server listed on a major blacklist is capped at D however good the records are', async () => {
    const answer = await checkDeliverability({ domain: 'listed.example' }, ctx());
    expect(answer).toMatchObject({ grade: 'D', score: 85, status: 'fail' });
    expect(answer.breakdown.blacklists).toMatchObject({ score: 0, status: 'fail', cap: 'D' });
    expect(answer.breakdown.blacklists.detail).toContain('Spamhaus ZEN');
    // Delisting from ZEN alone leaves the small list's quarter: 0.75 x 15 points.
    expect(answer.fixes[0]).toMatchObject({ part: 'blacklists', code: 'blacklist_major', points: 11.3, capsGradeAt: 'D' });
    // Hidden under the major listing, removal from the small list alone adds nothing.
    expect(answer.fixes.find((f) => f.code === 'blacklist_minor')).toMatchObject({ points: 0 });
  });

  it('a part whose DNS lookup times out is not scored, and the other weights are renormalised to 100', async () => {
    const answer = await checkDeliverability({ domain: 'slowdmarc.example' }, ctx());
    expect(answer.breakdown.dmarc).toMatchObject({ score: null, effectiveWeight: null, points: null, status: 'error', weight: 25 });
    expect(answer.breakdown.dmarc.detail).toMatch(/^Not scored: .*failed/);
    expect(answer.notScored).toEqual(['dmarc']);
    expect(answer.breakdown.spf).toMatchObject({ score: 1, weight: 20, effectiveWeight: 26.7, points: 26.7 });
    const effective = Object.values(answer.breakdown).reduce((sum, p) => sum + (p.effectiveWeight ?? 0), 0);
    expect(effective).toBeCloseTo(100, 0);
    // Never a zero for what we could not see: the score is over the 75 points that were scored.
    expect(answer).toMatchObject({ score: 100, grade: 'A', status: 'warn' });
    expect(answer.summary).toContain('DMARC was not scored');
    expect(answer.fixes).toEqual([]);
    expect(answer.findings).toContainEqual(expect.objectContaining({ code: 'part_not_scored' }));
  });

  it.each([
    ['bogus.example', /SERVFAIL|servfail/],
    ['lame.example', /timeout|no answer/],
  ])('%s (every lookup in the zone fails) gets no grade, never an A: status error, naming the failed lookups', async (domain, why) => {
    const answer = await checkDeliverability({ domain }, ctx());
    expect(answer).toMatchObject({ grade: null, score: null, status: 'error', uncheckedWeight: 75, caps: [] });
    expect(answer.notScored).toEqual(['spf', 'dkim', 'dmarc', 'mx']);
    // The parts that could be checked are still shown.
    expect(answer.breakdown.blacklists.score).toBe(1);
    expect(answer.summary).toMatch(/^No grade for .*: the lookups for SPF, DKIM, DMARC and MX failed.*75%/);
    expect(answer.summary).toMatch(why);
    expect(answer.findings[0]).toMatchObject({ severity: 'error', code: 'grade_withheld' });
  });

  it('failed lookups over 30% of the weight (SPF and DKIM: 40%) withhold the grade; under it (DMARC alone: 25%) the rest is graded', async () => {
    const answer = await checkDeliverability({ domain: 'halfdown.example' }, ctx());
    expect(answer).toMatchObject({ grade: null, score: null, status: 'error', uncheckedWeight: 40 });
    expect(answer.summary).toMatch(/SPF and DKIM failed/);
    const under = await checkDeliverability({ domain: 'slowdmarc.example' }, ctx());
    expect(under).toMatchObject({ grade: 'A', uncheckedWeight: 25 });
  });

  it('a domain registered ten days ago is capped at B and scores its age on the curve', async () => {
    const answer = await checkDeliverability({ domain: 'young.example' }, ctx());
    expect(answer.breakdown.domainAge).toMatchObject({ score: 0.13, cap: 'B', status: 'warn' });
    expect(answer).toMatchObject({ grade: 'B', score: 91 });
    expect(answer.fixes[0]).toMatchObject({ part: 'domain_age', code: 'domain_young', points: 8.7, capsGradeAt: 'B' });
  });

  it('a null MX scores no MX points and caps the grade at F', async () => {
    const answer = await checkDeliverability({ domain: 'nomail.example' }, ctx());
    expect(answer.breakdown.mx).toMatchObject({ score: 0, cap: 'F', status: 'fail' });
    expect(answer.grade).toBe('F');
  });

  it('when every lookup fails there is no grade and no score, never a made-up one', async () => {
    const failing: DnsLookup = {
      lookup: (name, type) => Promise.resolve({ ok: false, name, type, failure: 'timeout', detail: `no answer for ${type} ${name}` }),
      questionsAsked: 0,
    };
    const answer = await checkDeliverability({ domain: 'everything.example' }, { ...ctx(), dns: failing });
    expect(answer).toMatchObject({ grade: null, score: null, status: 'error', fixes: [] });
    expect(answer.notScored).toHaveLength(6);
    expect(answer.summary).toMatch(/could be scored/);
  });

  it('asks each (name, type) once in a whole grade run', async () => {
    const before = dns.questions.length;
    await checkDeliverability({ domain: 'listed.example' }, ctx());
    const asked = dns.questions.slice(before).map((q) => `${q.name.toLowerCase()}|${q.type}`);
    expect(asked.length).toBeGreaterThan(60);
    expect(new Set(asked).size).toBe(asked.length);
    // The blacklist check and the MX part share the MX question and the MX host's address.
    expect(asked.filter((q) => q === 'listed.example|MX')).toHaveLength(1);
    expect(asked.filter((q) => q === 'mx.listed.example|A')).toHaveLength(1);
  });

  it('refuses an email address with a 400 that says to pass the domain', async () => {
    await expect(checkDeliverability({ domain: 'me@good.example' }, ctx())).rejects.toSatisfy(
      (e: unknown) => e instanceof DomainError && restAnswerOf(e)?.status === 400 && /good\.example/.test(e.detail),
    );
  });
});
