import type { DnsAnswer, DnsLookup } from '../dns/dns-types.js';
import type { Finding } from '../check-result.js';
import type { ParsedSpfRecord, SpfMechanismTerm, SpfModifierTerm, SpfQualifier, SpfTerm } from './parse-spf-record.js';
import type { SpfRecordLookup } from './spf-record-lookup.js';
import type { MacroToken } from './spf-macro-string.js';
import { expandMacros, isQueryableName, targetName } from './expand-spf-macros.js';
import type { SpfMacroContext } from './expand-spf-macros.js';
import { MAX_DNS_LOOKUPS, MAX_NAMES_PER_LOOKUP, MAX_VOID_LOOKUPS } from './spf-result.js';
import { lookupExchangeAddresses } from './spf-mechanism-dns.js';
import { lookupFailureText } from './spf-lookup-failure.js';
import { startSpfLookahead } from './spf-lookahead.js';
import { spfFinding } from './spf-findings.js';

/** One term of a record in the answer's `mechanisms` tree. */
export interface SpfTermNode {
  readonly term: string;
  /** null for modifiers and invalid terms. */
  readonly qualifier: SpfQualifier | null;
  /** The mechanism or modifier name ("include", "ip4", "redirect", "exp", ...), or "invalid". */
  readonly mechanism: string;
  /** What follows the name (domain, network, prefix length), or null. */
  readonly value: string | null;
  /** DNS lookups this term itself counts (RFC 7208 4.6.4): 1 for include, a, mx, ptr, exists, redirect. */
  readonly lookups: number;
  /** False for terms never evaluated (after "all", or a redirect in a record with "all"). */
  readonly evaluated: boolean;
  /** The term's lookup found no such name or no records (a "void lookup", 4.6.4). */
  readonly void_lookup: boolean;
  /**
   * True when receivers never get to this term: it comes at or after the point where evaluation
   * stops (the 11th DNS lookup, the 3rd void lookup, an mx with more than 10 names; see
   * `expansion_stopped`). Such a term is listed but not looked up or expanded.
   */
  readonly past_limit: boolean;
  readonly errors: readonly string[];
  /** The record an include or redirect leads to, expanded; null for other terms. */
  readonly children: SpfRecordNode | null;
}

/** Where the audit stopped expanding, because receivers stop there with permerror (RFC 7208 4.6.4). */
export interface SpfExpansionStop {
  /** dns_lookups: the 11th DNS-querying term; void_lookups: the 3rd void lookup; mx_names: an mx with more than 10 names. */
  readonly reason: 'dns_lookups' | 'void_lookups' | 'mx_names';
  /** The term as written. */
  readonly term: string;
  /** The domain whose record holds the term. */
  readonly domain: string;
  /** 0 for the domain's own record, 1 for a record it includes (or redirects to), and so on. */
  readonly depth: number;
  /** The domains from the checked one down to `domain`. */
  readonly path: readonly string[];
}

/** How pyspf and policyd-spf count: an mx term's address lookups that find nothing are void lookups too. */
export interface SpfStrictVoidCount {
  readonly void_lookups: number;
  /** The term at which those receivers pass 2 void lookups and stop with permerror, or null. */
  readonly stopped_at: { readonly term: string; readonly domain: string } | null;
}

export interface SpfRecordNode {
  readonly domain: string;
  /** found; none (no SPF record); multiple (more than one: permerror); dns_error (the lookup failed). */
  readonly outcome: 'found' | 'none' | 'multiple' | 'dns_error';
  readonly record: string | null;
  /** Lookups counted by this record and everything it includes. */
  readonly lookups: number;
  readonly void_lookups: number;
  readonly errors: readonly string[];
  readonly mechanisms: readonly SpfTermNode[];
}

export interface SpfTreeAnalysis {
  readonly root: SpfRecordNode;
  /** Problems found term by term (the totals are judged by the caller). */
  readonly findings: readonly Finding[];
  /** Lookups that failed (timeout, SERVFAIL...): the tree is incomplete and the check is an error. */
  readonly dnsFailures: readonly string[];
  readonly voidNames: readonly string[];
  /** Null when the whole tree was within the limits. */
  readonly stopped: SpfExpansionStop | null;
  /** Void lookups counted the pyspf way, for the receiver divergence. */
  readonly strictVoids: SpfStrictVoidCount;
}

export interface AnalyzeSpfOptions {
  readonly dns: DnsLookup;
  readonly record: (domain: string) => Promise<SpfRecordLookup>;
  /** Expands macros; letters that need the client address stay unexpanded when `hasIp` is false. */
  readonly macro: SpfMacroContext;
  readonly hasIp: boolean;
  /** Off only to measure what it saves. */
  readonly lookahead?: boolean;
}

/** A tree is not expanded past this many records, so a record that fans out cannot run away. */
const MAX_RECORDS = 60;
const IP_LETTERS: ReadonlySet<string> = new Set(['i', 'c', 'p', 'v']);
/** RFC 7208 3.4: keep the record small enough for the whole DNS answer to fit in 512 octets. */
const LONG_RECORD = 450;
const LOOKUP_TERMS: ReadonlySet<string> = new Set(['include', 'a', 'mx', 'ptr', 'exists']);

/** Where a record sits: the domain's own policy (itself or reached by redirect), or an include. */
type Place = 'policy' | 'include';

const needsIp = (tokens: readonly MacroToken[] | null): boolean => tokens !== null && tokens.some((t) => t.kind === 'macro' && IP_LETTERS.has(t.letter));
const isVoid = (answer: DnsAnswer): boolean => !answer.ok && (answer.failure === 'nxdomain' || answer.failure === 'nodata');

/**
 * The whole SPF tree of a domain, for people reading it, counting lookups as RFC 7208 4.6.4 does for
 * an address that matches nothing (the path every unlisted sender takes). Terms are judged in
 * evaluation order and the audit stops where receivers stop (the 11th DNS lookup, the 3rd void
 * lookup, an mx of more than 10 names): terms after that are listed, not looked up, so no record
 * can make one check ask more than the limits allow. The look-ahead prefetches within the 10-lookup
 * window, so the wall time stays about the depth of the tree.
 */
export async function analyzeSpfTree(domain: string, options: AnalyzeSpfOptions): Promise<SpfTreeAnalysis> {
  const findings: Finding[] = [];
  const dnsFailures: string[] = [];
  const voidNames: string[] = [];
  const family = options.macro.ip.family;
  const addressType = family === 4 ? 'A' : 'AAAA';
  let recordsExpanded = 0;
  let lookups = 0;
  let voids = 0;
  let strictVoids = 0;
  let strictStop: SpfStrictVoidCount['stopped_at'] = null;
  let stopped: SpfExpansionStop | null = null;

  async function target(tokens: readonly MacroToken[] | null, current: string): Promise<string | null> {
    if (tokens === null) return current;
    if (!options.hasIp && needsIp(tokens)) return null;
    const name = targetName(await expandMacros(tokens, current, options.macro)).toLowerCase();
    return isQueryableName(name) ? name : null;
  }

  function stop(reason: SpfExpansionStop['reason'], term: SpfTerm, current: string, path: readonly string[]): void {
    stopped = { reason, term: term.text, domain: current, depth: path.length - 1, path };
  }

  /** Counts a void lookup in evaluation order; the third stops the audit at this term. */
  function countVoid(term: SpfTerm, current: string, path: readonly string[], strictExtra: number): void {
    voids += 1;
    countStrict(term, current, 1 + strictExtra);
    if (voids > MAX_VOID_LOOKUPS) stop('void_lookups', term, current, path);
  }
  function countStrict(term: SpfTerm, current: string, n: number): void {
    strictVoids += n;
    if (strictStop === null && strictVoids > MAX_VOID_LOOKUPS) strictStop = { term: term.text, domain: current };
  }

  async function expandRecord(current: string, path: readonly string[], place: Place): Promise<SpfRecordNode> {
    recordsExpanded += 1;
    const load = await options.record(current);
    const empty = { domain: current, lookups: 0, void_lookups: 0, mechanisms: [] };
    if (load.kind === 'none') return { ...empty, outcome: 'none', record: null, errors: [load.detail] };
    if (load.kind === 'error') {
      dnsFailures.push(load.detail);
      return { ...empty, outcome: 'dns_error', record: null, errors: [load.detail] };
    }
    if (load.kind === 'multiple') {
      const error = `${current} publishes ${load.texts.length} SPF records; there must be exactly one, so SPF fails with permerror (RFC 7208 4.5)`;
      if (path.length > 1) findings.push(spfFinding('multiple_spf_records', error));
      return { ...empty, outcome: 'multiple', record: load.texts.join(' | '), errors: [error] };
    }
    const parsed = load.record;
    judgeRecord(parsed, current, place);
    const allIndex = parsed.terms.findIndex((t) => t.kind === 'mechanism' && t.name === 'all');
    const evaluatedAt = (term: SpfTerm, index: number): boolean =>
      !(allIndex >= 0 && index > allIndex && term.kind === 'mechanism') && !(term.kind === 'modifier' && term.name === 'redirect' && parsed.hasAll);
    // Evaluation order (4.6.2, 6.1): the mechanisms left to right, then the redirect wherever it is written.
    const nodes: SpfTermNode[] = new Array<SpfTermNode>(parsed.terms.length);
    let redirectIndex = -1;
    for (const [index, term] of parsed.terms.entries()) {
      if (term.kind === 'modifier' && term.name === 'redirect') {
        redirectIndex = index;
        continue;
      }
      nodes[index] = await termNode(term, current, path, place, evaluatedAt(term, index));
    }
    if (redirectIndex >= 0) {
      const term = parsed.terms[redirectIndex] as SpfTerm;
      nodes[redirectIndex] = await termNode(term, current, path, place, evaluatedAt(term, redirectIndex));
    }
    const counted = nodes.filter((n) => n.evaluated);
    return {
      domain: current,
      outcome: 'found',
      record: parsed.text,
      lookups: counted.reduce((sum, n) => sum + n.lookups + (n.children?.lookups ?? 0), 0),
      void_lookups: counted.reduce((sum, n) => sum + (n.void_lookup ? 1 : 0) + (n.children?.void_lookups ?? 0), 0),
      errors: parsed.errors.map((e) => e.message),
      mechanisms: nodes,
    };
  }

  /** Record-level advice: syntax, all, length. */
  function judgeRecord(parsed: ParsedSpfRecord, current: string, place: Place): void {
    for (const error of parsed.errors) {
      findings.push(
        spfFinding(
          error.code,
          `In the SPF record of ${current}, ${error.message}. A syntax error makes the whole record a permanent error (permerror), so fix or remove "${error.term}".`,
        ),
      );
    }
    if (place !== 'policy') return;
    const all = parsed.mechanisms.find((m) => m.name === 'all');
    if (!all && !parsed.redirect) {
      findings.push(
        spfFinding(
          'no_all_mechanism',
          `The SPF record of ${current} ends without an "all" mechanism or a redirect, so unlisted senders get "neutral"; end it with "-all" (or "~all" while you test).`,
        ),
      );
    }
    if (all?.qualifier === '?') {
      findings.push(
        spfFinding('neutral_all', `The SPF record of ${current} ends with "?all", which says nothing about unlisted senders; use "-all" (or "~all").`),
      );
    }
    const allIndex = parsed.terms.findIndex((t) => t.kind === 'mechanism' && t.name === 'all');
    if (allIndex >= 0 && parsed.terms.slice(allIndex + 1).some((t) => t.kind === 'mechanism')) {
      findings.push(
        spfFinding(
          'terms_after_all',
          `In the SPF record of ${current}, mechanisms after "${parsed.terms[allIndex]?.text}" are never evaluated; move them before it.`,
        ),
      );
    }
    if (parsed.redirect && parsed.hasAll) {
      findings.push(
        spfFinding('redirect_ignored', `The SPF record of ${current} has both "all" and "${parsed.redirect.text}"; the redirect is ignored (RFC 7208 6.1).`),
      );
    }
    if (Buffer.byteLength(parsed.text) > LONG_RECORD) {
      findings.push(
        spfFinding(
          'record_too_long',
          `The SPF record of ${current} is ${Buffer.byteLength(parsed.text)} characters long; above about ${LONG_RECORD} the DNS answer no longer fits in one UDP packet and some receivers fail to read it. Shorten it (for example replace several ip4 terms with a prefix, or drop unused includes).`,
        ),
      );
    }
  }

  /** Same key order for every node, so the JSON reads the same whatever the term. */
  async function termNode(term: SpfTerm, current: string, path: readonly string[], place: Place, evaluated: boolean): Promise<SpfTermNode> {
    const n = await unorderedTermNode(term, current, path, place, evaluated);
    return {
      term: n.term,
      qualifier: n.qualifier,
      mechanism: n.mechanism,
      value: n.value,
      lookups: n.lookups,
      evaluated: n.evaluated,
      void_lookup: n.void_lookup,
      past_limit: n.past_limit,
      errors: n.errors,
      children: n.children,
    };
  }

  async function unorderedTermNode(term: SpfTerm, current: string, path: readonly string[], place: Place, evaluated: boolean): Promise<SpfTermNode> {
    if (term.kind === 'invalid') {
      return {
        term: term.text,
        qualifier: null,
        mechanism: 'invalid',
        value: null,
        lookups: 0,
        evaluated,
        void_lookup: false,
        past_limit: stopped !== null,
        errors: [term.error],
        children: null,
      };
    }
    const isLookup = term.kind === 'modifier' ? term.name === 'redirect' : LOOKUP_TERMS.has(term.name);
    if (evaluated && stopped === null && isLookup) {
      lookups += 1;
      if (lookups > MAX_DNS_LOOKUPS) stop('dns_lookups', term, current, path);
    }
    if (evaluated && stopped !== null) return listedNode(term, isLookup);
    if (term.kind === 'modifier') return modifierNode(term, current, path, place, evaluated);
    return mechanismNode(term, current, path, evaluated);
  }

  /** A term receivers never reach: listed with what it would count, not looked up or judged. */
  function listedNode(term: SpfMechanismTerm | SpfModifierTerm, isLookup: boolean): SpfTermNode {
    const stop = stopped as SpfExpansionStop | null;
    const error =
      stop && term.text === stop.term && stop.reason === 'dns_lookups'
        ? `not looked up: this would be DNS lookup number ${MAX_DNS_LOOKUPS + 1}; receivers stop here with permerror (RFC 7208 4.6.4)`
        : 'not looked up: receivers stop before this term (see expansion_stopped)';
    return {
      term: term.text,
      qualifier: term.kind === 'mechanism' ? term.qualifier : null,
      mechanism: term.name,
      value: term.kind === 'mechanism' ? mechanismValue(term) : term.value,
      lookups: isLookup ? 1 : 0,
      evaluated: true,
      void_lookup: false,
      past_limit: true,
      errors: [error],
      children: null,
    };
  }

  async function modifierNode(term: SpfModifierTerm, current: string, path: readonly string[], place: Place, evaluated: boolean): Promise<SpfTermNode> {
    const base = { term: term.text, qualifier: null, mechanism: term.name, value: term.value, evaluated, void_lookup: false, past_limit: false };
    if (term.name === 'exp') return { ...base, lookups: 0, errors: [], children: null };
    if (term.name !== 'redirect') {
      findings.push(
        spfFinding('unknown_modifier', `The SPF record of ${current} has the modifier "${term.text}", which SPF does not define; receivers ignore it.`),
      );
      return { ...base, lookups: 0, errors: [], children: null };
    }
    if (!evaluated) return { ...base, lookups: 1, errors: ['ignored: the record has an "all" mechanism (RFC 7208 6.1)'], children: null };
    const { errors, children } = await follow(term, current, path, place);
    return { ...base, lookups: 1, errors, children };
  }

  async function follow(
    term: SpfMechanismTerm | SpfModifierTerm,
    current: string,
    path: readonly string[],
    place: Place,
  ): Promise<{ errors: string[]; children: SpfRecordNode | null }> {
    const kind = term.kind === 'modifier' ? 'redirect' : 'include';
    const name = await target(term.tokens, current);
    if (name === null) return { errors: ['the target depends on the connecting address, so it is not expanded here'], children: null };
    if (path.includes(name)) {
      const error = `loop: ${[...path, name].join(' → ')}`;
      findings.push(
        spfFinding(
          'spf_loop',
          `"${term.text}" in the SPF record of ${current} leads back to ${name} (${[...path, name].join(' → ')}); receivers give up with permerror once the lookup limit is reached. Remove the loop.`,
        ),
      );
      return { errors: [error], children: null };
    }
    if (recordsExpanded >= MAX_RECORDS) return { errors: [`not expanded: the tree already has ${MAX_RECORDS} records`], children: null };
    const children = await expandRecord(name, [...path, name], kind === 'redirect' && place === 'policy' ? 'policy' : 'include');
    const errors: string[] = [];
    if (children.outcome === 'none') {
      const error = `${name} has no SPF record, so "${term.text}" is a permanent error (permerror, RFC 7208 ${kind === 'include' ? '5.2' : '6.1'})`;
      errors.push(error);
      findings.push(
        spfFinding(
          kind === 'include' ? 'include_without_spf' : 'redirect_without_spf',
          `In the SPF record of ${current}, ${error}; remove it or point it at a domain that publishes SPF.`,
        ),
      );
    }
    return { errors, children };
  }

  async function mechanismNode(term: SpfMechanismTerm, current: string, path: readonly string[], evaluated: boolean): Promise<SpfTermNode> {
    const base = { term: term.text, qualifier: term.qualifier, mechanism: term.name, value: mechanismValue(term), evaluated, past_limit: false };
    const plain = { ...base, void_lookup: false, errors: [], children: null };
    switch (term.name) {
      case 'all':
        if (term.qualifier === '+' && evaluated) {
          findings.push(
            spfFinding(
              'plus_all',
              `"${term.text}" in the SPF record of ${current} authorises every server on the internet to send as this domain; replace it with "-all" (or "~all").`,
            ),
          );
        }
        return { ...plain, lookups: 0 };
      case 'ip4':
      case 'ip6':
        return { ...plain, lookups: 0 };
      case 'ptr':
        if (evaluated) {
          findings.push(
            spfFinding(
              'ptr_mechanism',
              `"${term.text}" in the SPF record of ${current} uses the ptr mechanism, which RFC 7208 (5.5) says not to use: it is slow, unreliable and some receivers skip it. List the servers with ip4/ip6 or a instead.`,
            ),
          );
        }
        return { ...plain, lookups: 1 };
      case 'include': {
        if (!evaluated) return { ...plain, lookups: 1 };
        const { errors, children } = await follow(term, current, path, 'include');
        return { ...base, lookups: 1, void_lookup: false, errors, children };
      }
      case 'a':
      case 'mx':
      case 'exists': {
        if (!evaluated) return { ...plain, lookups: 1 };
        const name = await target(term.tokens, current);
        if (name === null) return { ...plain, lookups: 1 };
        const checked = await checkTarget(term, name, current, path);
        return { ...base, lookups: 1, void_lookup: checked.isVoid, errors: checked.errors, children: null };
      }
    }
  }

  /**
   * Looks the target up as an evaluation for an address of `family` would (5.3, 5.4, 5.7): void
   * lookups follow that family, so an a: name with only AAAA records is void for an IPv4 client.
   */
  async function checkTarget(term: SpfMechanismTerm, name: string, current: string, path: readonly string[]): Promise<{ isVoid: boolean; errors: string[] }> {
    if (term.name === 'mx') {
      const mx = await options.dns.lookup(name, 'MX');
      if (isVoid(mx)) {
        voidNames.push(name);
        countVoid(term, current, path, 0);
        return { isVoid: true, errors: [`void lookup: ${name} has no MX records`] };
      }
      if (!mx.ok) {
        const failure = lookupFailureText(mx);
        dnsFailures.push(failure);
        return { isVoid: false, errors: [failure] };
      }
      if (mx.records.length > MAX_NAMES_PER_LOOKUP) {
        const error = `${name} has ${mx.records.length} MX records; an mx mechanism may use at most ${MAX_NAMES_PER_LOOKUP}, so "${term.text}" is a permanent error (RFC 7208 4.6.4)`;
        findings.push(spfFinding('mx_too_many_records', `In the SPF record of ${current}, ${error}. List the mail servers with ip4/ip6 instead.`));
        stop('mx_names', term, current, path);
        return { isVoid: false, errors: [error] };
      }
      // Only for the pyspf count: a failed address lookup here is not this check's failure.
      const addresses = await lookupExchangeAddresses(options.dns, mx, options.macro.ip);
      const empty = addresses.filter(isVoid);
      if (empty.length > 0) countStrict(term, current, empty.length);
      return {
        isVoid: false,
        errors:
          empty.length > 0
            ? [
                `${empty.map((e) => e.name).join(', ')} ${empty.length === 1 ? 'has' : 'have'} no ${addressType} records (pyspf and policyd-spf count ${empty.length === 1 ? 'this as a void lookup' : 'these as void lookups'})`,
              ]
            : [],
      };
    }
    const type = term.name === 'exists' ? 'A' : addressType;
    const answer = await options.dns.lookup(name, type);
    if (!answer.ok && !isVoid(answer)) {
      const failure = lookupFailureText(answer);
      dnsFailures.push(failure);
      return { isVoid: false, errors: [failure] };
    }
    if (isVoid(answer)) {
      voidNames.push(name);
      countVoid(term, current, path, 0);
      const why = term.name === 'a' && !options.hasIp ? ' (without ip the audit takes an IPv4 client, which asks for A records: RFC 7208 5.3)' : '';
      return { isVoid: true, errors: [`void lookup: ${name} has no ${type} records${why}`] };
    }
    return { isVoid: false, errors: [] };
  }

  if (options.lookahead !== false) {
    startSpfLookahead(domain, {
      dns: options.dns,
      record: options.record,
      ip: options.macro.ip,
      macro: options.macro,
      maxStarted: 2 * MAX_DNS_LOOKUPS,
      skip: (term) => (term.kind === 'mechanism' && term.name === 'ptr') || (!options.hasIp && needsIp(term.tokens)),
    });
  }
  const root = await expandRecord(domain, [domain], 'policy');
  return { root, findings, dnsFailures, voidNames, stopped, strictVoids: { void_lookups: strictVoids, stopped_at: strictStop } };
}

/** What follows the mechanism name: "example.com", "192.0.2.0/24", "/24//64"... */
function mechanismValue(term: SpfMechanismTerm): string | null {
  const rest = term.text.replace(/^[+\-~?]?[a-zA-Z0-9]+/, '');
  if (rest === '') return null;
  return rest.startsWith(':') ? rest.slice(1) : rest;
}
