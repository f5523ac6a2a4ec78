import type { DomainExpiryAnswer } from '../domain-expiry/check-domain-expiry.js';
import type { Deduction, PartAssessment } from './part-assessment.js';
import { notScored, scoredPart } from './part-assessment.js';

/** Below this age receivers treat a sender domain as new; cold email from it is a known spam pattern. */
export const YOUNG_DOMAIN_DAYS = 30;
const ESTABLISHED_DAYS = 90;
const FULL_MARKS_DAYS = 365;
const RENEW_SOON_DAYS = 30;

/**
 * The share of the part a domain of this age earns, rising without jumps: 0 -> 0.4 over the first
 * 30 days, 0.4 -> 0.8 by 90 days (warmed up), 0.8 -> 1 by a year (an established sender).
 */
export function ageScore(ageDays: number): number {
  const age = Math.max(0, ageDays);
  if (age < YOUNG_DOMAIN_DAYS) return 0.4 * (age / YOUNG_DOMAIN_DAYS);
  if (age < ESTABLISHED_DAYS) return 0.4 + 0.4 * ((age - YOUNG_DOMAIN_DAYS) / (ESTABLISHED_DAYS - YOUNG_DOMAIN_DAYS));
  if (age < FULL_MARKS_DAYS) return 0.8 + 0.2 * ((age - ESTABLISHED_DAYS) / (FULL_MARKS_DAYS - ESTABLISHED_DAYS));
  return 1;
}

/**
 * Domain age, from the registration (RDAP or WHOIS). Younger than 30 days caps the grade at B: the
 * records may be perfect, but a new domain needs warming up before cold email. Not registered or
 * expired scores nothing and caps at F. A registry that publishes no creation date leaves the part
 * not scored (unless the domain has expired), rather than guessing an age.
 */
export function scoreDomainAge(answer: DomainExpiryAnswer): PartAssessment {
  const domain = answer.registeredDomain;
  if (answer.status === 'error') return notScored('error', `Not scored: ${answer.summary}`);
  if (answer.registered === false) {
    return scoredPart(answer.status, answer.summary, [
      {
        code: 'domain_not_registered',
        fraction: 1,
        cap: 'F',
        problem: `${domain} is not registered.`,
        fix: `Register ${domain} before sending mail from it.`,
      },
    ]);
  }
  if (answer.daysRemaining !== null && answer.daysRemaining < 0) {
    return scoredPart(answer.status, answer.summary, [
      {
        code: 'domain_expired',
        fraction: 1,
        cap: 'F',
        problem: `${domain} expired ${-answer.daysRemaining} day(s) ago.`,
        fix: `Renew ${domain} at ${answer.registrar ?? 'its registrar'} now.`,
      },
    ]);
  }
  if (answer.ageDays === null) {
    return notScored('warn', `Not scored: ${answer.server ?? 'the registry'} publishes no creation date for ${domain}, so its age is unknown.`);
  }
  const age = answer.ageDays;
  const deductions: Deduction[] = [];
  const missing = 1 - ageScore(age);
  if (age < YOUNG_DOMAIN_DAYS) {
    deductions.push({
      code: 'domain_young',
      fraction: missing,
      cap: 'B',
      problem: `${domain} was registered ${age} day(s) ago; receivers distrust cold email from domains younger than ${YOUNG_DOMAIN_DAYS} days.`,
      fix: `Warm ${domain} up for at least ${YOUNG_DOMAIN_DAYS - age} more day(s) with low volumes to people who reply before sending cold email; the part reaches full marks at one year.`,
    });
  } else if (missing > 0) {
    deductions.push({
      code: 'domain_age_building',
      fraction: missing,
      problem: `${domain} is ${age} days old; reputation keeps building until about a year.`,
      fix: `Keep ${domain}'s volumes steady and engaged; the part reaches full marks at one year (in ${FULL_MARKS_DAYS - age} days).`,
    });
  }
  if (answer.daysRemaining !== null && answer.daysRemaining < RENEW_SOON_DAYS) {
    deductions.push({
      code: 'domain_expires_soon',
      fraction: 0.2,
      problem: `${domain} expires in ${answer.daysRemaining} day(s).`,
      fix: `Renew ${domain} or turn on auto-renewal.`,
    });
  }
  const detail = deductions.length === 0 ? `${domain} is ${age} days old. ${answer.summary}` : deductions.map((d) => d.problem).join(' ');
  return scoredPart(answer.status, detail, deductions);
}
