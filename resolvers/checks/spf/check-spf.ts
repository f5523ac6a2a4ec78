import { DomainError } from '../../domain-error.js';
import type { CheckContext } from '../check-context.js';
import type { CheckResultBase, CheckStatus, Finding } from '../check-result.js';
import { statusFromFindings } from '../check-result.js';
import { normalizeDomain } from '../normalize-domain.js';
import { analyzeSpfTree } from './analyze-spf-tree.js';
import type { SpfExpansionStop, SpfTermNode, SpfTreeAnalysis } from './spf-tree-types.js';
import { mxAddressVoidDivergence } from './spf-receiver-divergence.js';
import type { SpfReceiverDivergence } from './spf-receiver-divergence.js';
import { checkHost } from './check-host.js';
import { validatedDomainFor } from './spf-mechanism-dns.js';
import { createSpfRecordLookup } from './spf-record-lookup.js';
import { parseSpfIp } from './spf-ip.js';
import type { SpfIp } from './spf-ip.js';
import type { SpfMacroContext } from './expand-spf-macros.js';
import { spfFinding } from './spf-findings.js';
import type { SpfFindingCode } from './spf-findings.js';
import { MAX_DNS_LOOKUPS, MAX_VOID_LOOKUPS } from './spf-result.js';
import type { SpfResult } from './spf-result.js';

export interface CheckSpfInput {
  readonly domain: string;
  /** Evaluate check_host() for this client address too. */
  readonly ip?: string;
  /** MAIL FROM address for the macros (default postmaster@domain). */
  readonly sender?: string;
  /** HELO name for %{h} (default the domain). */
  readonly helo?: string;
}

export interface CheckSpfAnswer extends CheckResultBase {
  readonly domain: string;
  /** Present when the domain is internationalised. */
  readonly domainUnicode?: string;
  /** The SPF record as published, or null when there is none (or more than one). */
  readonly record: string | null;
  /** True when receivers can evaluate the record without a permanent error. */
  readonly valid: boolean;
  /** DNS-querying terms across the whole tree (RFC 7208 4.6.4: more than 10 breaks SPF). */
  readonly lookupCount: number;
  readonly voidLookupCount: number;
  /** The record's terms, includes and redirects expanded. */
  readonly mechanisms: readonly SpfTermNode[];
  /**
   * Where the audit stopped because receivers stop there with permerror (the 11th DNS lookup, the
   * 3rd void lookup, an mx of more than 10 names): `{reason, term, domain, depth, path}`; null when
   * the whole tree is within the limits. Terms after it have `pastLimit: true`.
   */
  readonly expansionStopped: SpfExpansionStop | null;
  /** Where widely used receivers reach a different outcome than RFC 7208 (empty when they all agree). */
  readonly divergence: readonly SpfReceiverDivergence[];
  /** The following are present only when `ip` was given. */
  readonly ip?: string;
  readonly sender?: string;
  readonly helo?: string;
  readonly result?: SpfResult;
  readonly matchedMechanism?: string | null;
  readonly explanation?: string | null;
}

/** Findings that mean receivers get permerror: the record is not valid. */
// Read with any finding's code (a string), hence not a set of SpfFindingCode.
const PERMERROR_CODES: ReadonlySet<string> = new Set<SpfFindingCode>([
  'multiple_spf_records',
  'syntax_error',
  'duplicate_modifier',
  'too_many_dns_lookups',
  'too_many_void_lookups',
  'include_without_spf',
  'redirect_without_spf',
  'spf_loop',
  'mx_too_many_records',
  'spf_permerror',
]);

function readIp(raw: string | undefined): SpfIp | null {
  if (raw === undefined || raw.trim() === '') return null;
  const ip = parseSpfIp(raw);
  if (!ip) throw new DomainError('invalid_ip', `"ip" must be an IPv4 or IPv6 address such as 192.0.2.10 or 2001:db8::10, not "${raw.slice(0, 60)}".`);
  return ip;
}

function readSender(raw: string | undefined, domain: string): string {
  if (raw === undefined || raw.trim() === '') return `postmaster@${domain}`;
  const sender = raw.trim();
  const at = sender.lastIndexOf('@');
  if (at < 0 || at === sender.length - 1 || sender.length > 320 || /[\s\x00-\x1f\x7f]/.test(sender)) {
    throw new DomainError(
      'invalid_sender',
      `"sender" must be an email address such as bounce@${domain} (the MAIL FROM address), not "${sender.slice(0, 60)}".`,
    );
  }
  return at === 0 ? `postmaster${sender}` : sender;
}

function readHelo(raw: string | undefined, domain: string): string {
  if (raw === undefined || raw.trim() === '') return domain;
  const helo = raw.trim();
  if (helo.length > 255 || /[\s\x00-\x1f\x7f]/.test(helo)) {
    throw new DomainError(
      'invalid_helo',
      `"helo" must be the host name a server gives in HELO, such as mail.${domain}, without spaces and at most 255 characters.`,
    );
  }
  return helo;
}

/**
 * The SPF check (SPEC 2.1): the record, its validation, the lookup count over the whole include
 * tree, and with `ip` the check_host() result for that address. A failed lookup makes the answer
 * status "error" (temperror), never "no record".
 */
export async function checkSpf(input: CheckSpfInput, ctx: CheckContext): Promise<CheckSpfAnswer> {
  const { domain, unicode } = normalizeDomain(input.domain);
  const ip = readIp(input.ip);
  const sender = readSender(input.sender, domain);
  const helo = readHelo(input.helo, domain);
  const record = createSpfRecordLookup(ctx.dns);
  // Without an address the macros still need one; the tree leaves address-dependent names unexpanded.
  const macroIp = ip ?? { family: 4 as const, bytes: [192, 0, 2, 0], text: '192.0.2.0' };
  const macro: SpfMacroContext = {
    ip: macroIp,
    sender,
    helo,
    receiver: 'unknown',
    now: ctx.now,
    validatedDomain: (d) => validatedDomainFor(ctx.dns, macroIp, d),
  };

  const [tree, evaluation] = await Promise.all([
    analyzeSpfTree(domain, { dns: ctx.dns, record, macro, hasIp: ip !== null }),
    ip ? checkHost({ ip, domain, sender, helo }, { dns: ctx.dns, now: ctx.now, record }) : Promise.resolve(null),
  ]);

  const root = tree.root;
  const stopped = tree.stopped;
  // Exact unless an include or redirect past the limit was left unread (its terms are not counted).
  const atLeast = hasUnreadRecord(root.mechanisms) ? 'at least ' : '';
  const findings: Finding[] = recordFindings(domain, tree, atLeast);
  const failures = [...tree.dnsFailures];
  if (evaluation?.result === 'temperror' && evaluation.problem) failures.push(evaluation.problem);
  if (failures.length > 0) {
    findings.push(
      spfFinding(
        'dns_lookup_failed',
        `A DNS lookup failed while checking SPF for ${domain} (${failures[0]}); receivers would return temperror. This is not a missing record: try again, and check the DNS servers if it persists.`,
      ),
    );
  }
  if (evaluation && ip) findings.push(...resultFindings(evaluation.result, evaluation.problem, evaluation.matchedMechanism, ip.text, domain, findings));

  const valid = root.outcome === 'found' && !findings.some((f) => PERMERROR_CODES.has(f.code));
  const divergence: SpfReceiverDivergence[] = [];
  if (failures.length === 0 && root.outcome === 'found') {
    const mx = mxAddressVoidDivergence(
      domain,
      { valid, strict: tree.strictVoids },
      ip && evaluation ? { ip: ip.text, result: evaluation.result, strictStop: evaluation.strictVoidStop } : null,
    );
    if (mx) divergence.push(mx);
  }
  for (const d of divergence) findings.push(spfFinding('receiver_divergence', d.detail));
  const status: CheckStatus = failures.length > 0 ? 'error' : statusFromFindings(findings);
  const answer: CheckSpfAnswer = {
    status,
    summary: summarize({
      domain,
      status,
      outcome: root.outcome,
      valid,
      lookups: root.lookups,
      atLeast,
      findings,
      failure: failures[0],
      ip: ip?.text,
      evaluation,
      divergence,
    }),
    findings,
    domain,
    ...(unicode ? { domainUnicode: unicode } : {}),
    record: root.outcome === 'found' ? root.record : null,
    valid,
    lookupCount: root.lookups,
    voidLookupCount: root.voidLookups,
    mechanisms: root.mechanisms,
    expansionStopped: stopped,
    divergence,
    ...(ip && evaluation
      ? {
          ip: ip.text,
          sender,
          helo,
          result: evaluation.result,
          matchedMechanism: evaluation.matchedMechanism,
          explanation: evaluation.explanation,
        }
      : {}),
  };
  return answer;
}

/** The record's findings, in this order: none or several records, the tree's own, the lookup limits, where the audit stopped. */
function recordFindings(domain: string, tree: SpfTreeAnalysis, atLeast: string): Finding[] {
  const root = tree.root;
  const stopped = tree.stopped;
  const findings: Finding[] = [];
  if (root.outcome === 'none') {
    findings.push(
      spfFinding(
        'spf_record_missing',
        `${domain} publishes no SPF record, so receivers cannot tell which servers may send its mail. Publish a TXT record such as "v=spf1 include:<your provider> -all".`,
      ),
    );
  }
  if (root.outcome === 'multiple') {
    findings.push(spfFinding('multiple_spf_records', `${root.errors[0] ?? ''}. Merge them into one record: ${root.record ?? ''}`));
  }
  findings.push(...tree.findings);
  if (root.outcome === 'found') {
    if (root.lookups > MAX_DNS_LOOKUPS) {
      findings.push(
        spfFinding(
          'too_many_dns_lookups',
          `The SPF record of ${domain} needs ${atLeast}${root.lookups} DNS lookups; SPF allows ${MAX_DNS_LOOKUPS}, and above that receivers return permerror, which silently breaks SPF for all of this domain's mail. Remove includes you no longer use, replace a and mx with ip4/ip6 ranges, or flatten includes into the ip4/ip6 ranges they publish (and keep that copy up to date).`,
        ),
      );
    }
    if (root.voidLookups > MAX_VOID_LOOKUPS) {
      findings.push(
        spfFinding(
          'too_many_void_lookups',
          `The SPF record of ${domain} has ${root.voidLookups} terms pointing at names that do not exist or have no records (${tree.voidNames.join(', ')}); above ${MAX_VOID_LOOKUPS} receivers return permerror. Remove those terms.`,
        ),
      );
    } else if (root.voidLookups > 0) {
      findings.push(
        spfFinding(
          'void_lookups',
          `The SPF record of ${domain} points at names with no records (${tree.voidNames.join(', ')}); SPF tolerates at most ${MAX_VOID_LOOKUPS}. Remove the stale terms.`,
        ),
      );
    }
  }
  if (stopped) findings.push(spfFinding('expansion_stopped', stopMessage(stopped)));
  return findings;
}

function resultFindings(
  result: SpfResult,
  problem: string | null,
  matched: string | null,
  ip: string,
  domain: string,
  existing: readonly Finding[],
): Finding[] {
  switch (result) {
    case 'pass':
      return [spfFinding('ip_authorized', `${ip} is authorised to send for ${domain} (matched "${matched ?? ''}").`)];
    case 'fail':
      return [
        spfFinding(
          'ip_not_authorized',
          `${ip} is not authorised to send for ${domain}${matched ? ` ("${matched}" gives fail)` : ''}; mail from it fails SPF. Add the server to the record if it is yours.`,
        ),
      ];
    case 'softfail':
      return [
        spfFinding(
          'ip_softfail',
          `${ip} is not listed for ${domain}${matched ? ` ("${matched}" gives softfail)` : ''}; receivers treat its mail as suspicious. Add the server to the record if it is yours.`,
        ),
      ];
    case 'neutral':
      return [
        spfFinding(
          'ip_neutral',
          `${ip} gets "neutral" from ${domain}'s SPF record${matched ? ` ("${matched}")` : ''}: the record neither authorises nor forbids it.`,
        ),
      ];
    case 'permerror':
      return existing.some((f) => PERMERROR_CODES.has(f.code))
        ? []
        : [spfFinding('spf_permerror', `Evaluating ${domain}'s SPF record for ${ip} gives permerror: ${problem ?? 'the record is invalid'}.`)];
    case 'none':
    case 'temperror':
      return [];
  }
}

function hasUnreadRecord(terms: readonly SpfTermNode[]): boolean {
  return terms.some(
    (t) => (t.pastLimit && (t.mechanism === 'include' || t.mechanism === 'redirect')) || (t.children !== null && hasUnreadRecord(t.children.mechanisms)),
  );
}

function stopMessage(stop: SpfExpansionStop): string {
  const where = `"${stop.term}" in the SPF record of ${stop.domain} (${stop.depth === 0 ? 'the record itself' : `include depth ${stop.depth}: ${stop.path.join(' → ')}`})`;
  const why =
    stop.reason === 'dns_lookups'
      ? `it would be DNS lookup number ${MAX_DNS_LOOKUPS + 1}, past the ${MAX_DNS_LOOKUPS} receivers allow`
      : stop.reason === 'void_lookups'
        ? `it is void lookup number ${MAX_VOID_LOOKUPS + 1}, past the ${MAX_VOID_LOOKUPS} receivers allow`
        : `its domain has more than 10 MX names`;
  return `Stopped expanding at ${where}: ${why}, so receivers stop there with permerror. Terms after it are listed (past_limit) but not looked up.`;
}

interface SummaryInput {
  readonly domain: string;
  readonly status: CheckStatus;
  readonly outcome: string;
  readonly valid: boolean;
  readonly lookups: number;
  readonly atLeast: string;
  readonly findings: readonly Finding[];
  readonly failure: string | undefined;
  readonly ip: string | undefined;
  readonly evaluation: { result: SpfResult; matchedMechanism: string | null; lookupCount: number } | null;
  readonly divergence: readonly SpfReceiverDivergence[];
}

/**
 * One paragraph. It never calls a record invalid and a result pass (or any result other than
 * permerror) without saying why both hold: evaluation ends at the first match, so an address listed
 * before the broken part still gets its result while every other sender gets permerror.
 */
function summarize(input: SummaryInput): string {
  const { domain, status, outcome, valid, lookups, atLeast, findings, failure, ip, evaluation } = input;
  const decidedEarly = !valid && ip && evaluation && evaluation.result !== 'permerror' && evaluation.result !== 'temperror';
  const forIp =
    !ip || !evaluation
      ? ''
      : decidedEarly
        ? ` For ${ip} the result is still ${evaluation.result}${evaluation.matchedMechanism ? `: "${evaluation.matchedMechanism}" decided it` : ': evaluation ended'} after ${evaluation.lookupCount} DNS lookup${evaluation.lookupCount === 1 ? '' : 's'}, before the limit was reached or the broken part was read, because evaluation stops at the first match; senders not matched by then get permerror.`
        : ` For ${ip} the result is ${evaluation.result}${evaluation.matchedMechanism ? ` (matched "${evaluation.matchedMechanism}")` : ''}.`;
  const diverges =
    input.divergence.length === 0
      ? ''
      : ` Some receivers disagree: ${input.divergence.map((d) => `${d.receivers.join(' and ')} ${d.result !== undefined && evaluation ? `give ${ip ?? ''} ${d.result}` : d.valid ? 'accept the record' : 'treat the record as a permanent error'}`).join('; ')} (see divergence).`;
  if (status === 'error')
    return `Could not check the SPF record of ${domain}: ${failure ?? 'a DNS lookup failed'} (temperror); this is a lookup failure, not a missing record.${forIp}`;
  if (outcome === 'none') return `${domain} has no SPF record.${forIp}`;
  if (outcome === 'multiple') return `${domain} publishes more than one SPF record, which receivers treat as a permanent error.${forIp}`;
  if (!valid) {
    if (lookups > MAX_DNS_LOOKUPS)
      return `The SPF record of ${domain} needs ${atLeast}${lookups} DNS lookups, more than the ${MAX_DNS_LOOKUPS} SPF allows, so receivers return permerror for senders they cannot match within the first ${MAX_DNS_LOOKUPS}.${forIp}${diverges}`;
    return `The SPF record of ${domain} is invalid, so receivers treat it as a permanent error: ${findings.find((f) => f.severity === 'error')?.message ?? ''}${forIp}${diverges}`;
  }
  const warnings = findings.filter(
    (f) => (f.severity === 'warning' || f.severity === 'error') && !f.code.startsWith('ip_') && f.code !== 'receiver_divergence',
  ).length;
  return `${domain} has a valid SPF record using ${lookups} of ${MAX_DNS_LOOKUPS} DNS lookups${warnings > 0 ? `, with ${warnings} thing${warnings === 1 ? '' : 's'} to improve` : ''}.${forIp}${diverges}`;
}
