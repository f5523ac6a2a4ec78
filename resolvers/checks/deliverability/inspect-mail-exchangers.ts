import type { CheckResultBase, CheckStatus, Finding } from '../check-result.js';
import type { DnsAnswer, DnsLookup } from '../dns/dns-types.js';
import { isMissing } from '../dns/dns-types.js';
import { resolveMailRoute } from '../verify-email/resolve-mail-route.js';
import type { MailRoute } from '../verify-email/resolve-mail-route.js';

export interface MailExchangerHost {
  readonly exchange: string;
  readonly preference: number;
  readonly addresses: readonly string[];
  /** true: has an A or AAAA record; false: has neither; null: its lookups failed. */
  readonly resolves: boolean | null;
}

/** Where replies to this domain's mail would go, for the grade's MX part. */
export interface MailExchangersAnswer extends CheckResultBase {
  readonly domain: string;
  readonly route: MailRoute['kind'];
  readonly hosts: readonly MailExchangerHost[];
}

/** Enough for any real MX set; a longer list is not worth a question per host. */
const MAX_HOSTS = 10;

async function hostAddresses(dns: DnsLookup, exchange: string, preference: number): Promise<MailExchangerHost> {
  const answers: DnsAnswer<'A' | 'AAAA'>[] = await Promise.all([dns.lookup(exchange, 'A'), dns.lookup(exchange, 'AAAA')]);
  const addresses = answers.flatMap((a) => (a.ok ? a.records.map((r) => r.data) : []));
  const resolves = addresses.length > 0 ? true : answers.every(isMissing) ? false : null;
  return { exchange, preference, addresses, resolves };
}

/**
 * The domain's MX hosts and whether each has an address. Shares its questions with the blacklist
 * check (the same MX and A questions), which the request's DNS loader answers once.
 */
export async function inspectMailExchangers(dns: DnsLookup, domain: string): Promise<MailExchangersAnswer> {
  const route = await resolveMailRoute(dns, domain);
  const base = { domain, route: route.kind };
  const answer = (status: CheckStatus, summary: string, findings: Finding[], hosts: MailExchangerHost[] = []): MailExchangersAnswer =>
    ({ ...base, status, summary, findings, hosts });
  switch (route.kind) {
    case 'failed':
      return answer('error', `The MX lookup for ${domain} failed (${route.detail}); this says nothing about whether it has mail servers.`,
        [{ severity: 'error', code: 'mx_lookup_failed', message: `The MX lookup failed: ${route.detail}. Try again.` }]);
    case 'not_found':
      return answer('fail', `${domain} does not exist in DNS (NXDOMAIN), so it can receive no mail.`,
        [{ severity: 'error', code: 'mx_domain_not_found', message: `${domain} does not exist (NXDOMAIN). Check the spelling, or create the zone.` }]);
    case 'null_mx':
      return answer('fail', `${domain} publishes a null MX (RFC 7505): it declares that it receives no mail.`,
        [{ severity: 'error', code: 'mx_null', message: `${domain} declares it takes no mail, so replies bounce and many receivers refuse mail from it.` }]);
    case 'no_route':
      return answer('fail', `${domain} has no MX record and no address, so it can receive no mail.`,
        [{ severity: 'error', code: 'mx_missing', message: `${domain} has no MX record. Publish the MX records your mail provider gives you.` }]);
    case 'implicit_mx':
      return answer('warn', `${domain} has no MX record; mail would go to its own address (${route.addresses.join(', ')}) by RFC 5321 5.1.`,
        [{ severity: 'warning', code: 'mx_implicit', message: `${domain} relies on implicit MX; many receivers expect a sender domain to publish MX records. Publish the MX records of your mail provider.` }],
        [{ exchange: domain, preference: 0, addresses: route.addresses, resolves: true }]);
    case 'mx': {
      const hosts = await Promise.all(route.mx.slice(0, MAX_HOSTS).map((m) => hostAddresses(dns, m.exchange, m.preference)));
      const dangling = hosts.filter((h) => h.resolves === false);
      const unknown = hosts.filter((h) => h.resolves === null);
      const findings: Finding[] = [];
      if (dangling.length > 0) {
        findings.push({ severity: dangling.length === hosts.length ? 'error' : 'warning', code: 'mx_host_unresolvable', message: `MX host(s) ${dangling.map((h) => h.exchange).join(', ')} have no A or AAAA record; mail to them bounces. Point the MX at hosts that exist.` });
      }
      if (unknown.length > 0) {
        findings.push({ severity: 'warning', code: 'mx_host_lookup_failed', message: `The address lookups of ${unknown.map((h) => h.exchange).join(', ')} failed; those hosts were not judged.` });
      }
      const names = hosts.map((h) => h.exchange).join(', ');
      if (hosts.every((h) => h.resolves === null)) return answer('error', `The address lookups of ${domain}'s MX hosts (${names}) failed, so we cannot tell whether they exist.`, findings, hosts);
      if (dangling.length === hosts.length) return answer('fail', `None of ${domain}'s MX hosts (${names}) has an address, so it can receive no mail.`, findings, hosts);
      return answer(findings.length > 0 ? 'warn' : 'pass', `${domain} has ${hosts.length} MX host${hosts.length > 1 ? 's' : ''} (${names})${dangling.length > 0 ? `, ${dangling.length} without an address` : ''}.`, findings, hosts);
    }
  }
}
