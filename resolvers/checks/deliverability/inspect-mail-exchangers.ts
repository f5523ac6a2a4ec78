import type { CheckResultBase, CheckStatus, Finding } from '../check-result.js';
import type { DnsLookup } from '../../../clients/dns/dns-types.js';
import { inspectMxHost, mxRuleFindings } from '../verify-email/mx-host-rules.js';
import type { MxHostInspection } from '../verify-email/mx-host-rules.js';
import { resolveMailRoute } from '../verify-email/resolve-mail-route.js';
import type { MailRoute } from '../verify-email/resolve-mail-route.js';

/** An MX host and whether it has an address (resolves null: its lookups failed). */
export type MailExchangerHost = MxHostInspection;

/** Where replies to this domain's mail would go, for the grade's MX part. */
export interface MailExchangersAnswer extends CheckResultBase {
  readonly domain: string;
  readonly route: MailRoute['kind'];
  readonly hosts: readonly MailExchangerHost[];
  /** A null MX was published beside other MX records (RFC 7505 section 3 forbids it). */
  readonly with_null_mx: boolean;
}

/** Enough for any real MX set; a longer list is not worth three questions per host. */
const MAX_HOSTS = 10;

/**
 * The domain's MX hosts and whether each has an address. Shares its questions with the blacklist
 * check (the same MX and A questions), which the request's DNS loader answers once.
 */
export async function inspectMailExchangers(dns: DnsLookup, domain: string): Promise<MailExchangersAnswer> {
  const route = await resolveMailRoute(dns, domain);
  const base = { domain, route: route.kind, with_null_mx: route.kind === 'mx' && route.with_null_mx };
  const answer = (status: CheckStatus, summary: string, findings: Finding[], hosts: MailExchangerHost[] = []): MailExchangersAnswer => ({
    ...base,
    status,
    summary,
    findings,
    hosts,
  });
  switch (route.kind) {
    case 'failed':
      return answer('error', `The MX lookup for ${domain} failed (${route.detail}); this says nothing about whether it has mail servers.`, [
        { severity: 'error', code: 'mx_lookup_failed', message: `The MX lookup failed: ${route.detail}. Try again.` },
      ]);
    case 'not_found':
      return answer('fail', `${domain} does not exist in DNS (NXDOMAIN), so it can receive no mail.`, [
        { severity: 'error', code: 'mx_domain_not_found', message: `${domain} does not exist (NXDOMAIN). Check the spelling, or create the zone.` },
      ]);
    case 'null_mx':
      return answer('fail', `${domain} publishes a null MX (RFC 7505): it declares that it receives no mail.`, [
        { severity: 'error', code: 'mx_null', message: `${domain} declares it takes no mail, so replies bounce and many receivers refuse mail from it.` },
      ]);
    case 'no_route':
      return answer('fail', `${domain} has no MX record and no address, so it can receive no mail.`, [
        { severity: 'error', code: 'mx_missing', message: `${domain} has no MX record. Publish the MX records your mail provider gives you.` },
      ]);
    case 'implicit_mx':
      return answer(
        'warn',
        `${domain} has no MX record; mail would go to its own address (${route.addresses.join(', ')}) by RFC 5321 5.1.`,
        [
          {
            severity: 'warning',
            code: 'mx_implicit',
            message: `${domain} relies on implicit MX; many receivers expect a sender domain to publish MX records. Publish the MX records of your mail provider.`,
          },
        ],
        [{ exchange: domain, preference: 0, is_address: false, cname_target: null, addresses: route.addresses, resolves: true }],
      );
    case 'mx': {
      const hosts = await Promise.all(route.mx.slice(0, MAX_HOSTS).map((m) => inspectMxHost(dns, m.exchange, m.preference)));
      // An address literal takes no mail from senders that follow RFC 5321, like a host without an address.
      const unusable = hosts.filter((h) => h.resolves === false);
      const unknown = hosts.filter((h) => h.resolves === null);
      const findings = mxRuleFindings(domain, hosts, route.with_null_mx, '');
      if (unknown.length > 0) {
        findings.push({
          severity: 'warning',
          code: 'mx_host_lookup_failed',
          message: `The address lookups of ${unknown.map((h) => h.exchange).join(', ')} failed; those hosts were not judged.`,
        });
      }
      const names = hosts.map((h) => h.exchange).join(', ');
      if (hosts.every((h) => h.resolves === null))
        return answer('error', `The address lookups of ${domain}'s MX hosts (${names}) failed, so we cannot tell whether they exist.`, findings, hosts);
      if (unusable.length === hosts.length)
        return answer('fail', `None of ${domain}'s MX hosts (${names}) has an address, so it can receive no mail.`, findings, hosts);
      const status = findings.some((f) => f.severity === 'error') ? 'fail' : findings.length > 0 ? 'warn' : 'pass';
      return answer(
        status,
        `${domain} has ${hosts.length} MX host${hosts.length > 1 ? 's' : ''} (${names})${unusable.length > 0 ? `, ${unusable.length} without an address` : ''}${findings.length > 0 ? `; ${findings.length} problem(s) with its MX records` : ''}.`,
        findings,
        hosts,
      );
    }
  }
}
