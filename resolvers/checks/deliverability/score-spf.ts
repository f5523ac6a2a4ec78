import type { CheckSpfAnswer } from '../spf/check-spf.js';
import type { Deduction, PartAssessment } from './part-assessment.js';
import { notScored, scoredPart } from './part-assessment.js';

/** Lookups at or above this many leave no room for the next include a provider adds (RFC 7208 4.6.4 allows 10). */
const LOOKUPS_NEAR_LIMIT = 9;

/**
 * SPF: full marks for one valid record that ends in -all or ~all. Missing or broken (permerror:
 * several records, over 10 lookups, a syntax error) scores nothing, because receivers then treat
 * the mail as having no SPF at all; Gmail and Yahoo require SPF of bulk senders, hence the cap.
 */
export function scoreSpf(answer: CheckSpfAnswer): PartAssessment {
  const domain = answer.domain;
  if (answer.status === 'error') return notScored('error', `Not scored: ${answer.summary}`);
  const has = (code: string): boolean => answer.findings.some((f) => f.code === code);
  const deductions: Deduction[] = [];
  if (answer.record === null && has('multiple_spf_records')) {
    deductions.push({
      code: 'spf_multiple_records',
      fraction: 1,
      cap: 'C',
      problem: `${domain} publishes more than one SPF record, so receivers treat SPF as a permanent error.`,
      fix: 'Merge the SPF records into one TXT record starting with v=spf1.',
    });
  } else if (answer.record === null) {
    deductions.push({
      code: 'spf_missing',
      fraction: 1,
      cap: 'C',
      problem: `${domain} has no SPF record.`,
      fix: `Publish one TXT record at ${domain} such as "v=spf1 include:<your mail provider> ~all".`,
    });
  } else if (!answer.valid) {
    const why = answer.findings.find((f) => f.severity === 'error');
    deductions.push({
      code: 'spf_invalid',
      fraction: 1,
      cap: 'C',
      problem: `The SPF record of ${domain} is a permanent error for receivers${why ? `: ${why.message}` : '.'}`,
      fix:
        why?.code === 'too_many_dns_lookups'
          ? `Bring the SPF record under 10 DNS lookups (it needs ${answer.lookupCount}): remove unused includes or replace a and mx with ip4/ip6.`
          : 'Correct the SPF record so that it evaluates without a permanent error (see check-spf for the term at fault).',
    });
  } else {
    if (has('plus_all')) {
      deductions.push({
        code: 'spf_plus_all',
        fraction: 0.6,
        problem: `The SPF record of ${domain} ends in +all, which authorises every server on the internet.`,
        fix: 'End the SPF record with ~all or -all instead of +all.',
      });
    }
    if (has('neutral_all') || has('no_all_mechanism')) {
      deductions.push({
        code: 'spf_not_restrictive',
        fraction: 0.2,
        problem: `The SPF record of ${domain} does not end in ~all or -all, so unlisted senders are neutral.`,
        fix: 'End the SPF record with ~all (or -all once every sender is listed).',
      });
    }
    if (answer.lookupCount >= LOOKUPS_NEAR_LIMIT) {
      deductions.push({
        code: 'spf_near_lookup_limit',
        fraction: 0.1,
        problem: `The SPF record of ${domain} uses ${answer.lookupCount} of its 10 DNS lookups; one more include breaks it.`,
        fix: 'Remove includes you no longer use, or replace a and mx with ip4/ip6 ranges.',
      });
    }
    if (answer.voidLookupCount > 0) {
      deductions.push({
        code: 'spf_void_lookups',
        fraction: 0.1,
        problem: `The SPF record of ${domain} points at ${answer.voidLookupCount} name(s) with no records.`,
        fix: 'Remove the SPF terms that point at names with no records.',
      });
    }
    if (has('ptr_mechanism')) {
      deductions.push({
        code: 'spf_ptr',
        fraction: 0.1,
        problem: `The SPF record of ${domain} uses ptr, which RFC 7208 5.5 deprecates and some receivers skip.`,
        fix: 'Replace ptr with ip4/ip6 ranges or includes.',
      });
    }
  }
  const detail = deductions.length === 0 ? answer.summary : deductions.map((d) => d.problem).join(' ');
  return scoredPart(answer.status, detail, deductions);
}
