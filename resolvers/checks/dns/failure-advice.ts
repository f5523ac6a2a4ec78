import type { DnsAnswer } from '../../../clients/dns/dns-types.js';

/**
 * What to say about a lookup that failed in a way retrying does not mend: what is wrong and who can
 * fix it. Null for failures that may pass (a timeout, a SERVFAIL without a DNSSEC verdict), which
 * may say "try again".
 */
export function permanentFailureAdvice(answer: DnsAnswer): string | null {
  if (answer.ok) return null;
  if (answer.dnssec === 'bogus')
    return `DNSSEC validation of ${answer.name} fails: the zone's signatures, or its DS record at the registrar, are wrong. Whoever runs the domain's DNS (or its registrar) must re-sign the zone or fix the DS record; checking again will not help until then.`;
  if (answer.failure === 'not_recursive')
    return 'The resolver this service uses (DNS_SERVERS) does not recurse: the service operator must point DNS_SERVERS at a recursive resolver; checking again will not help until then.';
  if (answer.failure === 'refused')
    return `The question about ${answer.name} was refused, which is an answer, not an outage: the server must be told to answer it (a name server must serve the zone, or the delegation at the registrar must name servers that do; a resolver must allow this service). Whoever runs that server must change it; checking again will not help until then.`;
  return null;
}
