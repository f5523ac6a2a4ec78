import { getDomain } from 'tldts';
import type { CheckContext } from '../check-context.js';
import type { CheckResultBase, Finding } from '../check-result.js';
import { statusFromFindings } from '../check-result.js';
import type { DnsAnswer, DnssecStatus } from '../../../clients/dns/dns-types.js';
import { isMissing } from '../../../clients/dns/dns-types.js';
import { NAMESERVERS_LIMIT, parseBulkDomains } from '../bulk-input.js';
import { DNS_PROVIDERS } from './dns-provider-table.js';
import { matchSuffixRule } from './match-host-suffix.js';
import { checkDelegationHealth, parentView } from './delegation-health.js';
import { permanentFailureAdvice } from '../dns/failure-advice.js';
import type { DelegationHealth, ParentView } from './delegation-health.js';

export interface NameserversInput {
  /** Comma-separated string or list of strings; at most NAMESERVERS_LIMIT distinct domains. */
  readonly domains: unknown;
}

export interface NameserverProvider {
  readonly id: string;
  readonly name: string;
  readonly nameservers: readonly string[];
}

export type NameserverOutcome = 'ok' | 'no_nameservers' | 'not_found' | 'invalid' | 'lookup_failed';

export interface NameserverResult {
  readonly domain: string;
  readonly domainUnicode: string | null;
  /** The zone whose NS records are shown: the domain itself, or its registered domain for a host name. */
  readonly zone: string | null;
  readonly outcome: NameserverOutcome;
  readonly nameservers: readonly string[];
  /** Providers the name servers belong to; unmatched servers are grouped under id "unknown". */
  readonly providers: readonly NameserverProvider[];
  /** The single provider's name, "Mixed" when several, null when none is known. */
  readonly provider: string | null;
  readonly reason: string | null;
  /** DNSSEC status of the NS answer as the resolver reported it (AD bit); null when the lookup failed otherwise. */
  readonly dnssec: DnssecStatus | null;
  /**
   * Single-domain calls only (absent in bulk): the parent's NS set beside the zone's, and each
   * server asked directly. Null when it does not apply (a TLD, or the lookup cannot ask directly).
   */
  readonly delegation?: DelegationHealth | null;
}

export interface NameserversAnswer extends CheckResultBase {
  readonly results: readonly NameserverResult[];
  readonly providerCounts: Readonly<Record<string, number>>;
}

function groupByProvider(nameservers: readonly string[]): NameserverProvider[] {
  const groups = new Map<string, { id: string; name: string; nameservers: string[] }>();
  for (const ns of nameservers) {
    const rule = matchSuffixRule(ns, DNS_PROVIDERS);
    const id = rule?.id ?? 'unknown';
    const group = groups.get(id) ?? { id, name: rule?.name ?? 'Unknown provider', nameservers: [] };
    group.nameservers.push(ns);
    groups.set(id, group);
  }
  return [...groups.values()];
}

function failureReason(answer: DnsAnswer): string {
  if (answer.ok) return '';
  // "Try again" only where trying again can help: a bogus zone or our own resolver's set-up will not.
  if (answer.dnssec === 'bogus')
    return `The NS lookup failed DNSSEC validation: ${answer.detail}. The zone's signatures or its DS record at the registrar must be fixed; retrying will not help.`;
  const advice = permanentFailureAdvice(answer);
  if (advice) return `The NS lookup failed (${answer.failure}): ${answer.detail}. ${advice}`;
  return `The NS lookup failed (${answer.failure}): ${answer.detail}. This is not a missing record; try again.`;
}

async function lookupNameservers(domain: string, unicode: string | null, ctx: CheckContext): Promise<NameserverResult> {
  let zone = domain;
  let answer = await ctx.dns.lookup(domain, 'NS');
  // A host name (www.example.com) has no NS records of its own; its zone's are the ones that serve it.
  const registered = getDomain(domain, { allowPrivateDomains: false });
  if (!answer.ok && answer.failure === 'nodata' && registered && registered !== domain) {
    zone = registered;
    answer = await ctx.dns.lookup(registered, 'NS');
  }
  const told = answer.ok || isMissing(answer) || answer.dnssec === 'bogus';
  const base = { domain, domainUnicode: unicode, dnssec: told ? (answer.dnssec ?? null) : null };
  if (!answer.ok) {
    if (answer.failure === 'nxdomain') {
      return { ...base, zone: null, outcome: 'not_found', nameservers: [], providers: [], provider: null, reason: `${zone} does not exist in DNS (NXDOMAIN).` };
    }
    if (isMissing(answer)) {
      return {
        ...base,
        zone,
        outcome: 'no_nameservers',
        nameservers: [],
        providers: [],
        provider: null,
        reason: `${zone} exists but publishes no NS records.`,
      };
    }
    return { ...base, zone: null, outcome: 'lookup_failed', nameservers: [], providers: [], provider: null, reason: failureReason(answer) };
  }
  const nameservers = [...new Set(answer.records.map((r) => r.data.toLowerCase().replace(/\.$/, '')))].sort();
  const providers = groupByProvider(nameservers);
  const known = providers.filter((p) => p.id !== 'unknown');
  const provider = known.length === 0 ? null : known.length === 1 && providers.length === 1 ? (known[0]?.name ?? null) : 'Mixed';
  return { ...base, zone, outcome: 'ok', nameservers, providers, provider, reason: null };
}

/**
 * NS records and DNS provider per domain. Providers come from the name servers' names by suffix
 * (dns-provider-table.ts). Every domain is looked up concurrently through the request's DnsLookup,
 * which de-duplicates and caps questions in flight.
 */
export async function checkNameservers(input: NameserversInput, ctx: CheckContext): Promise<NameserversAnswer> {
  const items = parseBulkDomains(input.domains, 'domains', NAMESERVERS_LIMIT);
  // One domain: delegation health too (a dozen or so more questions). The parent's side is asked
  // beside the NS lookup, so a zone whose servers are all lame is seen within the request's time
  // even while the resolver is still timing out on it. Bulk calls stay as they are.
  const first = items.length === 1 && items[0]?.ok ? items[0].domain : null;
  // A host name's zone is known only after its NS lookup: its delegation is asked about then.
  const only = first !== null && getDomain(first, { allowPrivateDomains: false }) === first ? first : null;
  const early: Promise<ParentView> | undefined = only !== null && ctx.dns.askServer ? parentView(ctx.dns, only) : undefined;
  let results = await Promise.all(
    items.map(
      (item): Promise<NameserverResult> =>
        item.ok
          ? item.domain === only && early
            ? resolverOrLame(item.domain, item.unicode, ctx, early)
            : lookupNameservers(item.domain, item.unicode, ctx)
          : Promise.resolve<NameserverResult>({
              domain: item.input,
              domainUnicode: null,
              zone: null,
              outcome: 'invalid',
              nameservers: [],
              providers: [],
              provider: null,
              reason: item.reason,
              dnssec: null,
            }),
    ),
  );
  const single = results.length === 1 ? results[0] : undefined;
  if (single && single.outcome === 'ok' && single.zone) {
    const parent = single.zone === only ? early : undefined;
    results = [{ ...single, delegation: await checkDelegationHealth(ctx.dns, single.zone, single.nameservers, parent) }];
  } else if (single && !single.delegation && single.outcome === 'lookup_failed' && single.dnssec !== 'bogus' && only !== null && early) {
    // The resolver could not give the zone's NS set (SERVFAIL or no answer): the parent's side says
    // which servers the zone is delegated to and what each of them answers.
    const delegation = await checkDelegationHealth(ctx.dns, only, null, early);
    if (delegation && delegation.parentNameservers !== null) {
      results = [{ ...single, zone: only, reason: lameReason(only, single.reason, delegation), delegation }];
    }
  }

  const counts: Record<string, number> = {};
  for (const r of results) if (r.provider) counts[r.provider] = (counts[r.provider] ?? 0) + 1;
  const failed = results.filter((r) => r.outcome === 'lookup_failed');
  const findings: Finding[] = [];
  for (const r of results) {
    if (r.outcome === 'not_found' || r.outcome === 'no_nameservers' || r.outcome === 'invalid') {
      findings.push({ severity: 'warning', code: r.outcome === 'invalid' ? 'invalid_domain' : 'no_nameservers', message: `${r.domain}: ${r.reason}` });
    }
  }
  for (const r of failed) findings.push({ severity: r.delegation ? 'error' : 'warning', code: 'lookup_failed', message: `${r.domain}: ${r.reason}` });
  for (const r of results) if (r.delegation && r.zone) findings.push(...delegationFindings(r.zone, r.delegation));

  // A domain delegated to servers none of which serves it still has name servers: it is counted,
  // and the summary says how many of them are lame.
  const lame = results.filter((r) => r.outcome === 'lookup_failed' && isLameDelegation(r.delegation)).length;
  const resolved = results.filter((r) => r.outcome === 'ok').length + lame;
  // A failed NS lookup explained by the delegation (every server lame or silent) is a finding, not an outage.
  const explained = failed.filter(
    (r) => r.delegation && r.delegation.parentNameservers !== null && r.delegation.servers.every((s) => s.status !== 'authoritative'),
  );
  const status = failed.length > 0 && failed.length === results.length && explained.length === 0 ? 'error' : statusFromFindings(findings);
  const summary =
    status === 'error'
      ? `The NS lookups failed for all ${results.length} domain(s); nothing could be determined.`
      : `${resolved} of ${results.length} domain(s) have name servers${lame > 0 ? ` (${lame} delegated to servers that do not serve it)` : ''}${
          Object.keys(counts).length > 0
            ? `; providers: ${Object.entries(counts)
                .map(([k, v]) => `${k} ${v}`)
                .join(', ')}`
            : ''
        }.`;
  return { status, summary, findings, results, providerCounts: counts };
}

/** Delegated by the parent, and no server it names answers for the zone with authority. */
function isLameDelegation(d: DelegationHealth | null | undefined): d is DelegationHealth {
  return !!d && (d.parentNameservers?.length ?? 0) > 0 && d.servers.length > 0 && d.servers.every((s) => s.status !== 'authoritative');
}

/**
 * One domain: the resolver's NS lookup raced against the parent's side. A resolver facing a lame
 * delegation spends its own timeouts on every server before it gives up; the parent's referral and
 * the servers asked directly (in parallel, each with its own 1 s deadline: DIRECT_TIMEOUT_MS) tell
 * within about that second, so a lame delegation is answered then, without waiting for the resolver.
 */
async function resolverOrLame(domain: string, unicode: string | null, ctx: CheckContext, early: Promise<ParentView>): Promise<NameserverResult> {
  const viaResolver = lookupNameservers(domain, unicode, ctx);
  const lame = checkDelegationHealth(ctx.dns, domain, null, early)
    .then((d) => (isLameDelegation(d) ? d : null))
    .catch(() => null);
  const first = await Promise.race([viaResolver.then((result) => ({ result })), lame.then((delegation) => ({ delegation }))]);
  if ('result' in first) return first.result;
  if (first.delegation === null) return viaResolver;
  return {
    domain,
    domainUnicode: unicode,
    zone: domain,
    outcome: 'lookup_failed',
    nameservers: [],
    providers: [],
    provider: null,
    dnssec: null,
    reason: lameReason(domain, null, first.delegation),
    delegation: first.delegation,
  };
}

/**
 * The reason of a failed NS lookup once the parent's side is known: which servers the zone is
 * delegated to and why none of them serves it, instead of "try again".
 */
function lameReason(zone: string, resolverReason: string | null, d: DelegationHealth): string {
  const working = d.servers.filter((s) => s.status === 'authoritative');
  const parentSays = `${d.parentZone} delegates ${zone} to ${d.parentNameservers?.join(', ') || 'no server'}`;
  if (d.parentNameservers?.length === 0) return `${d.parentReason ?? `${zone} is not delegated`}.`;
  if (working.length > 0) {
    return `The resolver could not look up the NS records of ${zone}, although ${working.map((s) => s.nameserver).join(', ')} answered for it directly (${parentSays}): ${resolverReason ?? ''}`;
  }
  const each = d.servers.map((s) => `${s.nameserver} ${s.status === 'lame' ? 'is lame' : 'could not be asked'} (${s.reason})`).join('; ');
  return `No name server of ${zone} serves it: ${parentSays}, and ${each}. Add the zone to those servers, or change the delegation at the registrar to servers that serve it.`;
}

/** What a delegation's health means for the operator, as findings. */
function delegationFindings(zone: string, d: DelegationHealth): Finding[] {
  const findings: Finding[] = [];
  if (d.parentNameservers === null) {
    findings.push({
      severity: 'info',
      code: 'delegation_not_checked',
      message: `The delegation of ${zone} could not be compared with its parent zone ${d.parentZone}: ${d.parentReason}.`,
    });
  } else if (d.onlyAtParent.length > 0 || d.onlyAtChild.length > 0) {
    const parts = [
      d.onlyAtParent.length > 0 ? `only the parent (${d.parentZone}) lists ${d.onlyAtParent.join(', ')}` : '',
      d.onlyAtChild.length > 0 ? `only the zone's own NS records list ${d.onlyAtChild.join(', ')}` : '',
    ].filter((p) => p !== '');
    findings.push({
      severity: 'warning',
      code: 'ns_parent_child_mismatch',
      message: `The delegation of ${zone} differs from its NS records: ${parts.join('; ')}. Make the name servers at the registrar and in the zone the same.`,
    });
  }
  const working = d.servers.filter((s) => s.status === 'authoritative').length;
  for (const s of d.servers.filter((x) => x.status === 'lame')) {
    findings.push({
      severity: working === 0 ? 'error' : 'warning',
      code: 'lame_nameserver',
      message: `${s.nameserver} is lame for ${zone}: ${s.reason}. Add the zone to that server or remove it from the delegation.`,
    });
  }
  for (const s of d.servers.filter((x) => x.status === 'no_address' || x.status === 'unreachable')) {
    findings.push({ severity: 'warning', code: 'nameserver_unreachable', message: `${s.nameserver} could not be asked about ${zone}: ${s.reason}.` });
  }
  if (d.serialsAgree === false) {
    const serials = d.servers
      .filter((s) => s.serial !== null)
      .map((s) => `${s.nameserver} ${s.serial}`)
      .join(', ');
    findings.push({
      severity: 'warning',
      code: 'soa_serial_mismatch',
      message: `The name servers of ${zone} give different SOA serials (${serials}): a secondary has not picked up the latest zone; check zone transfers.`,
    });
  }
  return findings;
}
