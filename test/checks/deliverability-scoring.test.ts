import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combineParts } from '../../resolvers/checks/deliverability/combine-parts.js';
import { GRADE_PARTS, PART_WEIGHTS, letterForScore } from '../../resolvers/checks/deliverability/grade-weights.js';
import type { GradePart } from '../../resolvers/checks/deliverability/grade-weights.js';
import { orderFixes } from '../../resolvers/checks/deliverability/order-fixes.js';
import { notScored, scoredPart } from '../../resolvers/checks/deliverability/part-assessment.js';
import type { Deduction, PartAssessment } from '../../resolvers/checks/deliverability/part-assessment.js';
import { scoreDkim } from '../../resolvers/checks/deliverability/score-dkim.js';
import { ageScore, scoreDomainAge } from '../../resolvers/checks/deliverability/score-domain-age.js';
import type { CheckDkimAnswer } from '../../resolvers/checks/dkim/check-dkim.js';
import type { MailExchangerHost, MailExchangersAnswer } from '../../resolvers/checks/deliverability/inspect-mail-exchangers.js';
import { scoreMx } from '../../resolvers/checks/deliverability/score-mx.js';
import type { DomainExpiryAnswer } from '../../resolvers/checks/domain-expiry/check-domain-expiry.js';

const perfect = (): Record<GradePart, PartAssessment> =>
  Object.fromEntries(GRADE_PARTS.map((p) => [p, scoredPart('pass', 'fine')])) as Record<GradePart, PartAssessment>;
const deduction = (code: string, fraction: number, cap?: Deduction['cap']): Deduction => ({
  code,
  fraction,
  problem: `${code}.`,
  fix: `fix ${code}.`,
  ...(cap ? { cap } : {}),
});

describe('deliverability grade arithmetic', () => {
  it('the six weights add up to 100', () => {
    expect(Object.values(PART_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('letters change at 90, 80, 70 and 60', () => {
    expect([100, 90, 89, 80, 79, 70, 69, 60, 59, 0].map(letterForScore)).toEqual(['A', 'A', 'B', 'B', 'C', 'C', 'D', 'D', 'F', 'F']);
  });

  it('a part that is not scored drops out and the others share its weight, whatever the parts are', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }).filter((s) => s.some(Boolean)),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
        (scored, fractions) => {
          const parts = Object.fromEntries(
            GRADE_PARTS.map((p, i) => [
              p,
              scored[i]
                ? scoredPart('warn', 'x', fractions[i]! > 0 ? [deduction('d', fractions[i]!)] : [])
                : notScored('warn', 'Not scored: the evidence cannot tell.'),
            ]),
          ) as Record<GradePart, PartAssessment>;
          const combined = combineParts(parts);
          const weights = GRADE_PARTS.filter((_, i) => scored[i]).map((p) => PART_WEIGHTS[p]);
          const total = weights.reduce((a, b) => a + b, 0);
          const expected = (GRADE_PARTS.reduce((sum, p, i) => sum + (scored[i] ? (1 - fractions[i]!) * PART_WEIGHTS[p] : 0), 0) * 100) / total;
          expect(combined.score).toBe(Math.round(expected));
          for (const [i, p] of GRADE_PARTS.entries()) {
            expect(combined.breakdown[p].score === null).toBe(!scored[i]);
          }
        },
      ),
    );
  });

  it('parts whose lookups failed withhold the grade exactly when they carry 30% of the weight or more', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (failed) => {
        const parts = Object.fromEntries(
          GRADE_PARTS.map((p, i) => [p, failed[i] ? notScored('error', 'Not scored: the lookup failed.') : scoredPart('pass', 'ok')]),
        ) as Record<GradePart, PartAssessment>;
        const combined = combineParts(parts);
        const unchecked = GRADE_PARTS.filter((_, i) => failed[i]).reduce((sum, p) => sum + PART_WEIGHTS[p], 0);
        expect(combined.uncheckedWeight).toBe(unchecked);
        expect(combined.grade === null).toBe(unchecked >= 30);
      }),
    );
  });

  it('a cap lowers the letter but never the score, and never raises a letter', () => {
    const parts = perfect();
    parts.dmarc = scoredPart('warn', 'p=none', [deduction('dmarc_policy_none', 0.4, 'B')]);
    expect(combineParts(parts)).toMatchObject({ score: 90, uncappedGrade: 'A', grade: 'B' });
    parts.spf = scoredPart('fail', 'none', [deduction('spf_missing', 1, 'C')]);
    parts.dkim = scoredPart('fail', 'none', [deduction('dkim_missing', 1, 'C')]);
    const combined = combineParts(parts);
    // 100 - 20 - 20 - 10 = 50 is already F; the C and B caps do not raise it.
    expect(combined).toMatchObject({ score: 50, grade: 'F' });
    expect(combined.caps[0]).toMatchObject({ part: 'spf_and_dkim', grade: 'F', code: 'no_authentication' });
  });

  it('fixes are ordered by the points each adds alone, and a deduction hidden under a bigger one adds nothing', () => {
    const parts = perfect();
    parts.dmarc = scoredPart('warn', '', [deduction('dmarc_no_reports', 0.1), deduction('dmarc_policy_none', 0.4, 'B')]);
    parts.spf = scoredPart('warn', '', [deduction('spf_not_restrictive', 0.2)]);
    parts.blacklists = scoredPart('fail', '', [deduction('blacklist_major', 1, 'D'), deduction('blacklist_minor', 0.5)]);
    const fixes = orderFixes(parts, combineParts(parts).effectiveWeights);
    expect(fixes.map((f) => [f.code, f.points])).toEqual([
      ['dmarc_policy_none', 10],
      ['blacklist_major', 7.5],
      ['spf_not_restrictive', 4],
      ['dmarc_no_reports', 2.5],
      ['blacklist_minor', 0],
    ]);
  });

  it('points of fixes grow with the weights of the parts left when another part is not scored', () => {
    const parts = perfect();
    parts.dmarc = notScored('error', 'Not scored.');
    parts.spf = scoredPart('fail', '', [deduction('spf_missing', 1, 'C')]);
    expect(orderFixes(parts, combineParts(parts).effectiveWeights)).toEqual([expect.objectContaining({ code: 'spf_missing', points: 26.7 })]);
  });

  it('no part scored gives no score and no grade', () => {
    const parts = Object.fromEntries(GRADE_PARTS.map((p) => [p, notScored('error', 'Not scored.')])) as Record<GradePart, PartAssessment>;
    expect(combineParts(parts)).toMatchObject({ score: null, grade: null });
  });
});

describe('domain age', () => {
  it('rises without jumps from 0 at registration to full marks at a year', () => {
    expect(ageScore(0)).toBe(0);
    expect(ageScore(30)).toBeCloseTo(0.4);
    expect(ageScore(90)).toBeCloseTo(0.8);
    expect(ageScore(365)).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 2000 }), (age) => {
        expect(ageScore(age + 1)).toBeGreaterThanOrEqual(ageScore(age));
        expect(ageScore(age + 1) - ageScore(age)).toBeLessThan(0.02);
      }),
    );
  });

  const expiry = (over: Partial<DomainExpiryAnswer>): DomainExpiryAnswer => ({
    status: 'pass',
    summary: 'registered.',
    findings: [],
    domain: 'x.example',
    domainUnicode: null,
    registeredDomain: 'x.example',
    registered: true,
    registrar: 'R',
    created: null,
    expires: null,
    daysRemaining: 300,
    ageDays: 1000,
    source: 'rdap',
    server: 'rdap.test',
    ...over,
  });

  it('a registry without a creation date leaves the age not scored rather than guessed', () => {
    expect(scoreDomainAge(expiry({ ageDays: null }))).toMatchObject({ scored: false, status: 'warn' });
  });

  it('an expired domain scores nothing and caps the grade at F even without a creation date', () => {
    expect(scoreDomainAge(expiry({ ageDays: null, daysRemaining: -3 }))).toMatchObject({
      scored: true,
      deductions: [{ code: 'domain_expired', fraction: 1, cap: 'F' }],
    });
  });
});

describe('DKIM part', () => {
  const dkim = (over: Partial<CheckDkimAnswer>): CheckDkimAnswer => ({
    status: 'warn',
    summary: 'No key under the common selectors, but _domainkey exists.',
    findings: [],
    domain: 'x.example',
    selector: null,
    selectorsChecked: [],
    keys: [],
    domainkeyExists: true,
    wildcard: false,
    ...over,
  });

  it('keys that may sit under selectors we did not guess are not scored, not scored as missing', () => {
    expect(scoreDkim(dkim({}))).toMatchObject({ scored: false, status: 'warn' });
    expect(scoreDkim(dkim({ status: 'fail', domainkeyExists: false }))).toMatchObject({ scored: true, deductions: [{ code: 'dkim_missing', cap: 'C' }] });
  });

  it('a wildcard with no key of its own found is no DKIM: scored as missing, capped at C (issue 21 item 4)', () => {
    expect(scoreDkim(dkim({ domainkeyExists: null, wildcard: true }))).toMatchObject({
      scored: true,
      deductions: [{ code: 'dkim_missing', fraction: 1, cap: 'C', problem: expect.stringMatching(/only a wildcard TXT answers there/) }],
    });
  });

  it('a 1024-bit key costs a quarter of the part', () => {
    const key = {
      selector: 's1',
      record: 'v=DKIM1; p=...',
      valid: true,
      keyType: 'rsa' as const,
      keyBits: 1024,
      testing: false,
      hashAlgorithms: [],
      serviceTypes: [],
      findings: [],
    };
    expect(scoreDkim(dkim({ status: 'warn', keys: [key], domainkeyExists: true }))).toMatchObject({
      scored: true,
      deductions: [{ code: 'dkim_weak_key', fraction: 0.25 }],
    });
  });
});

describe('MX part: the MX rules', () => {
  const host = (exchange: string, over: Partial<MailExchangerHost> = {}): MailExchangerHost => ({
    exchange,
    preference: 10,
    is_address: false,
    cname_target: null,
    addresses: ['192.0.2.1'],
    resolves: true,
    ...over,
  });
  const mx = (hosts: MailExchangerHost[], withNullMx = false): MailExchangersAnswer => ({
    status: 'warn',
    summary: 's',
    findings: [],
    domain: 'x.example',
    route: 'mx',
    hosts,
    with_null_mx: withNullMx,
  });
  const codes = (p: PartAssessment): string[] => (p.scored ? p.deductions.map((d) => d.code) : []);

  it('a null MX beside real ones, an alias host and an address literal each cost the part, with a fix', () => {
    const part = scoreMx(
      mx([host('mail.x.example', { cname_target: 'mx.provider.example' }), host('192.0.2.7', { is_address: true, addresses: [], resolves: false })], true),
    );
    expect(codes(part)).toEqual(['mx_null_with_others', 'mx_is_address', 'mx_is_cname']);
    expect(part.scored && part.deductions.find((d) => d.code === 'mx_is_cname')?.fix).toMatch(/Point the MX at mx\.provider\.example directly/);
    expect(part.scored && part.deductions.reduce((sum, d) => sum + d.fraction, 0)).toBeCloseTo(1);
  });

  it('an MX set of address literals only is a domain that takes no mail', () => {
    const part = scoreMx(mx([host('192.0.2.7', { is_address: true, addresses: [], resolves: false })]));
    expect(part).toMatchObject({ scored: true, deductions: [{ code: 'mx_hosts_unresolvable', cap: 'F' }] });
  });
});
