import { isIP } from 'node:net';
import type { Finding } from '../check-result.js';
import type { DnsAnswer, DnsLookup } from '../../../clients/dns/dns-types.js';
import { isMissing } from '../../../clients/dns/dns-types.js';

/** One MX host as the MX rules see it. */
export interface MxHostInspection {
  readonly exchange: string;
  readonly preference: number;
  /** The exchange is an IP address literal, which an MX may not hold (RFC 5321 section 5.1); not looked up. */
  readonly is_address: boolean;
  /** The exchange is an alias: the CNAME's target, which RFC 2181 section 10.3 says the MX should name instead. */
  readonly cname_target: string | null;
  readonly addresses: readonly string[];
  /** true: has an A or AAAA record; false: has neither (or is an address literal); null: its lookups failed. */
  readonly resolves: boolean | null;
}

/**
 * The host's A and AAAA, asked at once (one round trip); an alias shows in their answers' CNAME chain,
 * so no CNAME question is needed. An address literal is not looked up: senders look MX targets up as
 * names, and "192.0.2.1" as a name does not exist.
 */
export async function inspectMxHost(dns: DnsLookup, exchange: string, preference: number): Promise<MxHostInspection> {
  if (isIP(exchange) !== 0) return { exchange, preference, is_address: true, cname_target: null, addresses: [], resolves: false };
  const [a, aaaa] = await Promise.all([dns.lookup(exchange, 'A'), dns.lookup(exchange, 'AAAA')]);
  const answers: DnsAnswer<'A' | 'AAAA'>[] = [a, aaaa];
  const addresses = answers.flatMap((x) => (x.ok ? x.records.map((r) => r.data) : []));
  const resolves = addresses.length > 0 ? true : answers.every(isMissing) ? false : null;
  return { exchange, preference, is_address: false, cname_target: a.canonical ?? aaaa.canonical ?? null, addresses, resolves };
}

/** One broken MX rule: what is wrong and what to change, as two sentences. */
export interface MxRuleProblem {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly problem: string;
  readonly fix: string;
}

/**
 * The MX rules. `prefix` keeps each check's code family (check-dns: "dns_mx_is_cname"; the grade:
 * "mx_is_cname"). Hosts whose lookups failed are not judged.
 */
export function mxRuleProblems(domain: string, hosts: readonly MxHostInspection[], withNullMx: boolean, prefix: '' | 'dns_' = ''): MxRuleProblem[] {
  const problems: MxRuleProblem[] = [];
  if (withNullMx) {
    problems.push({
      severity: 'error',
      code: `${prefix}mx_null_with_others`,
      problem: `${domain} publishes a null MX ("0 .") beside other MX records, which RFC 7505 section 3 forbids; senders may treat the domain as taking no mail.`,
      fix: `Remove the null MX if ${domain} receives mail, or the other MX records if it does not.`,
    });
  }
  const literal = hosts.filter((h) => h.is_address);
  if (literal.length > 0) {
    problems.push({
      severity: literal.length === hosts.length ? 'error' : 'warning',
      code: `${prefix}mx_is_address`,
      problem: `The MX exchange ${literal.map((h) => h.exchange).join(', ')} is an IP address; an MX must name a host (RFC 5321 section 5.1), and senders look it up as a name, which fails.`,
      fix: `Give the server a host name with an A record (such as mail.${domain}) and point the MX at it.`,
    });
  }
  for (const host of hosts.filter((h) => h.cname_target !== null)) {
    problems.push({
      severity: 'warning',
      code: `${prefix}mx_is_cname`,
      problem: `The MX host ${host.exchange} is an alias (CNAME) of ${host.cname_target}; RFC 2181 section 10.3 says an MX must name the host itself, and some senders refuse an alias.`,
      fix: `Point the MX at ${host.cname_target} directly.`,
    });
  }
  const dangling = hosts.filter((h) => !h.is_address && h.resolves === false);
  if (dangling.length > 0) {
    problems.push({
      severity: dangling.length === hosts.length ? 'error' : 'warning',
      code: `${prefix}mx_host_unresolvable`,
      problem: `The MX host(s) ${dangling.map((h) => h.exchange).join(', ')} have no A or AAAA record, so mail to them bounces.`,
      fix: 'Give them an address, or point the MX at hosts that exist.',
    });
  }
  return problems;
}

export function mxRuleFindings(domain: string, hosts: readonly MxHostInspection[], withNullMx: boolean, prefix: '' | 'dns_' = ''): Finding[] {
  return mxRuleProblems(domain, hosts, withNullMx, prefix).map((p) => ({ severity: p.severity, code: p.code, message: `${p.problem} ${p.fix}` }));
}
