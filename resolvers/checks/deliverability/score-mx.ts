import type { MailExchangersAnswer } from './inspect-mail-exchangers.js';
import type { Deduction, PartAssessment } from './part-assessment.js';
import { notScored, scoredPart } from './part-assessment.js';
import { mxRuleProblems } from '../verify-email/mx-host-rules.js';

/**
 * What each MX rule costs the part: a null MX beside real ones may make senders treat the domain as
 * taking no mail; hosts without an address or given as an address lose the mail sent to them; an
 * alias works at most senders but is refused by some.
 */
const MX_RULE_FRACTIONS: Readonly<Record<string, number>> = {
  mx_null_with_others: 0.5,
  mx_host_unresolvable: 0.3,
  mx_is_address: 0.3,
  mx_is_cname: 0.2,
};

/**
 * MX: full marks when every MX host has an address. A domain that cannot receive mail (no MX and
 * no address, a null MX, NXDOMAIN, MX hosts that do not exist) scores nothing and caps the grade
 * at F: replies bounce, and receivers that verify the sender domain refuse its mail.
 */
export function scoreMx(answer: MailExchangersAnswer): PartAssessment {
  const domain = answer.domain;
  if (answer.status === 'error') return notScored('error', `Not scored: ${answer.summary}`);
  const noMail = (code: string, fix: string) => scoredPart(answer.status, answer.summary, [{ code, fraction: 1, cap: 'F', problem: answer.summary, fix }]);
  switch (answer.route) {
    case 'not_found':
      return noMail('mx_domain_not_found', `Create the ${domain} zone and publish your mail provider's MX records.`);
    case 'null_mx':
      return noMail('mx_null', `Replace the null MX of ${domain} with your mail provider's MX records.`);
    case 'no_route':
      return noMail('mx_missing', `Publish the MX records your mail provider gives you for ${domain}.`);
    case 'implicit_mx':
      return scoredPart(answer.status, answer.summary, [
        {
          code: 'mx_implicit',
          fraction: 0.5,
          problem: `${domain} has no MX record and relies on implicit MX.`,
          fix: `Publish the MX records your mail provider gives you for ${domain}.`,
        },
      ]);
    default: {
      const unusable = answer.hosts.filter((h) => h.resolves === false);
      if (unusable.length === answer.hosts.length) return noMail('mx_hosts_unresolvable', `Point the MX records of ${domain} at mail hosts that exist.`);
      // The MX rules (RFC 7505 section 3, RFC 2181 section 10.3, RFC 5321 section 5.1) as deductions;
      // their findings already say what to change.
      const deductions: Deduction[] = [];
      for (const p of mxRuleProblems(domain, answer.hosts, answer.with_null_mx)) {
        deductions.push({ code: p.code, fraction: MX_RULE_FRACTIONS[p.code] ?? 0.2, problem: p.problem, fix: p.fix });
      }
      return scoredPart(answer.status, deductions.length === 0 ? answer.summary : deductions.map((d) => d.problem).join(' '), deductions);
    }
  }
}
