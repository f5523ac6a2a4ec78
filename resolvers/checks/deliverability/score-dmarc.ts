import type { CheckDmarcAnswer } from '../dmarc/check-dmarc.js';
import type { Deduction, PartAssessment } from './part-assessment.js';
import { notScored, scoredPart } from './part-assessment.js';

/**
 * DMARC: full marks for p=reject on all mail with aggregate reports. Missing or ignored (several
 * records, a syntax error) scores nothing and caps the grade at C: Gmail and Yahoo require a DMARC
 * record of bulk senders. p=none satisfies them but protects nothing, so it costs 40% of the part
 * and caps the grade at B: an A means the domain cannot be spoofed.
 */
export function scoreDmarc(answer: CheckDmarcAnswer): PartAssessment {
  const domain = answer.domain;
  if (answer.status === 'error') return notScored('error', `Not scored: ${answer.summary}`);
  const deductions: Deduction[] = [];
  if (answer.record === null) {
    deductions.push({
      code: 'dmarc_missing',
      fraction: 1,
      cap: 'C',
      problem: `${domain} has no DMARC record.`,
      fix: `Publish a TXT record at _dmarc.${answer.organizationalDomain ?? domain} such as "v=DMARC1; p=quarantine; rua=mailto:dmarc@${answer.organizationalDomain ?? domain}".`,
    });
  } else if (answer.policy === null) {
    deductions.push({
      code: 'dmarc_invalid',
      fraction: 1,
      cap: 'C',
      problem: `Receivers ignore the DMARC record of ${domain}: ${answer.summary}`,
      fix: `Replace the record at ${answer.source ?? `_dmarc.${domain}`} with one valid record such as "v=DMARC1; p=quarantine; rua=mailto:dmarc@${domain}".`,
    });
  } else {
    // A record whose policy is invalid but whose rua= is valid is read as p=none (RFC 7489 6.6.3).
    const effective = answer.valid ? answer.effectivePolicy : 'none';
    if (effective === 'none') {
      deductions.push({
        code: 'dmarc_policy_none',
        fraction: 0.4,
        cap: 'B',
        problem: answer.valid
          ? `The DMARC policy that applies to ${domain} is none: it only monitors, so spoofed mail is still delivered.`
          : `The DMARC record of ${domain} has an invalid policy, so receivers treat it as p=none.`,
        fix: 'Once aggregate reports show your own mail passes, set p=quarantine, then p=reject.',
      });
    } else if (effective === 'quarantine') {
      deductions.push({
        code: 'dmarc_policy_quarantine',
        fraction: 0.1,
        problem: `The DMARC policy of ${domain} is quarantine.`,
        fix: 'Move the DMARC policy to p=reject once reports show no legitimate mail fails.',
      });
    }
    if ((answer.pct ?? 100) < 100) {
      deductions.push({
        code: 'dmarc_pct_partial',
        fraction: 0.1,
        problem: `The DMARC policy of ${domain} applies to only ${answer.pct}% of failing mail.`,
        fix: 'Remove pct= (or set pct=100).',
      });
    }
    if (answer.t === 'y') {
      deductions.push({
        code: 'dmarc_test_mode',
        fraction: 0.1,
        problem: `The DMARC record of ${domain} is in test mode (t=y), so receivers apply one step less than the policy.`,
        fix: 'Remove t=y from the DMARC record.',
      });
    }
    if (answer.rua.length === 0) {
      deductions.push({
        code: 'dmarc_no_reports',
        fraction: 0.1,
        problem: `The DMARC record of ${domain} asks for no aggregate reports.`,
        fix: `Add rua=mailto:dmarc@${answer.organizationalDomain ?? domain} (or your DMARC reporting service) to see who sends as ${domain}.`,
      });
    }
  }
  const detail = deductions.length === 0 ? answer.summary : deductions.map((d) => d.problem).join(' ');
  return scoredPart(answer.status, detail, deductions);
}
