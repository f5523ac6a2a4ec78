import type { MailExchangersAnswer } from './inspect-mail-exchangers.js';
import type { PartAssessment } from './part-assessment.js';
import { notScored, scoredPart } from './part-assessment.js';

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
      return scoredPart(answer.status, answer.summary, [{
        code: 'mx_implicit', fraction: 0.5, problem: `${domain} has no MX record and relies on implicit MX.`,
        fix: `Publish the MX records your mail provider gives you for ${domain}.`,
      }]);
    default: {
      const dangling = answer.hosts.filter((h) => h.resolves === false);
      if (dangling.length === answer.hosts.length) return noMail('mx_hosts_unresolvable', `Point the MX records of ${domain} at mail hosts that exist.`);
      if (dangling.length === 0) return scoredPart(answer.status, answer.summary);
      return scoredPart(answer.status, answer.summary, [{
        code: 'mx_host_unresolvable', fraction: 0.3,
        problem: `MX host(s) ${dangling.map((h) => h.exchange).join(', ')} of ${domain} have no address.`,
        fix: `Remove or correct the MX records pointing at ${dangling.map((h) => h.exchange).join(', ')}.`,
      }]);
    }
  }
}
