import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { parseDomainSpec, parseMacroString } from './spf-macro-string.js';
import type { MacroToken } from './spf-macro-string.js';

const QUALIFIERS = ['+', '-', '~', '?'] as const;
export type SpfQualifier = (typeof QUALIFIERS)[number];
const MECHANISM_NAMES = ['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists'] as const;
export type SpfMechanismName = (typeof MECHANISM_NAMES)[number];

function isQualifier(value: string): value is SpfQualifier {
  return (QUALIFIERS as readonly string[]).includes(value);
}

function isMechanismName(value: string): value is SpfMechanismName {
  return (MECHANISM_NAMES as readonly string[]).includes(value);
}

export interface SpfMechanismTerm {
  readonly kind: 'mechanism';
  /** The term as written in the record. */
  readonly text: string;
  readonly qualifier: SpfQualifier;
  readonly name: SpfMechanismName;
  /** The domain-spec as written (include, a, mx, ptr, exists), or null when absent. */
  readonly domainSpec: string | null;
  readonly tokens: readonly MacroToken[] | null;
  /** ip4/ip6: the network's octets. */
  readonly network: readonly number[] | null;
  readonly cidr4: number | null;
  readonly cidr6: number | null;
}

export interface SpfModifierTerm {
  readonly kind: 'modifier';
  readonly text: string;
  /** Lower-cased: "redirect", "exp", or an unknown modifier's name. */
  readonly name: string;
  readonly value: string;
  readonly tokens: readonly MacroToken[];
}

export interface SpfInvalidTerm {
  readonly kind: 'invalid';
  readonly text: string;
  readonly error: string;
}

export type SpfTerm = SpfMechanismTerm | SpfModifierTerm | SpfInvalidTerm;

export interface SpfSyntaxError {
  /** syntax_error, or duplicate_modifier for a second redirect= or exp= (RFC 7208 6). */
  readonly code: 'syntax_error' | 'duplicate_modifier';
  /** The offending term as written. */
  readonly term: string;
  readonly message: string;
}

export interface ParsedSpfRecord {
  readonly text: string;
  readonly terms: readonly SpfTerm[];
  readonly mechanisms: readonly SpfMechanismTerm[];
  readonly redirect: SpfModifierTerm | null;
  readonly exp: SpfModifierTerm | null;
  /** RFC 7208 6.1: a redirect is ignored when the record has an "all" mechanism anywhere. */
  readonly hasAll: boolean;
  /** Any error makes check_host() return permerror before evaluating (4.6). */
  readonly errors: readonly SpfSyntaxError[];
}

// ip4-cidr-length and ip6-cidr-length: no leading zeros (the suite's cidr4-032).
const CIDR = '(0|[1-9][0-9]*)';
const DUAL_CIDR = new RegExp(`^(?::(.*?))?(?:/${CIDR})?(?://${CIDR})?$`);
const QNUM = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IP4_NETWORK = new RegExp(`^${QNUM}\\.${QNUM}\\.${QNUM}\\.${QNUM}$`);
// Built once: parsing runs on every record of every check.
const IP4_TERM = new RegExp(`^:([0-9.]+)(?:/${CIDR})?$`);
const IP6_TERM = new RegExp(`^:([0-9a-fA-F:.]+)(?:/${CIDR})?$`);

type TermParse = SpfMechanismTerm | SpfModifierTerm | { readonly kind: 'invalid'; readonly error: string };

function invalid(error: string): { kind: 'invalid'; error: string } {
  return { kind: 'invalid', error };
}

function parseMechanism(text: string): TermParse {
  const m = /^([+\-~?]?)([a-zA-Z][a-zA-Z0-9]*)([^a-zA-Z0-9\n\r\u2028\u2029].*)?$/.exec(text);
  if (!m) return invalid(`"${text}" is neither a mechanism nor a modifier`);
  const [, q = '', rawName = '', rest = ''] = m;
  const name = rawName.toLowerCase();
  // The pattern admits only the four qualifiers (or none, which is "+").
  const qualifier = q === '' || !isQualifier(q) ? '+' : q;
  if (!isMechanismName(name) || (rest !== '' && rest[0] !== ':' && rest[0] !== '/')) {
    return invalid(`"${text}" is not a known mechanism (all, include, a, mx, ptr, ip4, ip6, exists) or a modifier (name=value)`);
  }
  const base = {
    kind: 'mechanism' as const,
    text,
    qualifier,
    name,
    domainSpec: null,
    tokens: null,
    network: null,
    cidr4: null,
    cidr6: null,
  };

  switch (name) {
    case 'all':
      return rest === '' ? base : invalid(`"${text}": "all" takes no value`);
    case 'include':
    case 'exists': {
      if (!rest.startsWith(':') || rest.length === 1) return invalid(`"${text}": ${name} needs a domain, as in ${name}:example.com`);
      const spec = parseDomainSpec(rest.slice(1));
      return spec.ok ? { ...base, domainSpec: rest.slice(1), tokens: spec.tokens } : invalid(`"${text}": ${spec.error}`);
    }
    case 'ptr': {
      if (rest === '') return base;
      if (!rest.startsWith(':') || rest.length === 1) return invalid(`"${text}": ptr takes only an optional domain (ptr or ptr:example.com)`);
      const spec = parseDomainSpec(rest.slice(1));
      return spec.ok ? { ...base, domainSpec: rest.slice(1), tokens: spec.tokens } : invalid(`"${text}": ${spec.error}`);
    }
    case 'a':
    case 'mx': {
      const dual = DUAL_CIDR.exec(rest);
      if (!dual) return invalid(`"${text}": the prefix lengths must be written /N for IPv4 and //N for IPv6, such as ${name}/24//64`);
      const [, domain, c4, c6] = dual;
      const cidr4 = c4 === undefined ? null : Number(c4);
      const cidr6 = c6 === undefined ? null : Number(c6);
      if (cidr4 !== null && cidr4 > 32) return invalid(`"${text}": an IPv4 prefix length is at most 32`);
      if (cidr6 !== null && cidr6 > 128) return invalid(`"${text}": an IPv6 prefix length is at most 128`);
      if (domain === undefined) return { ...base, cidr4, cidr6 };
      if (domain === '') return invalid(`"${text}": the domain after ":" is empty`);
      const spec = parseDomainSpec(domain);
      return spec.ok ? { ...base, domainSpec: domain, tokens: spec.tokens, cidr4, cidr6 } : invalid(`"${text}": ${spec.error}`);
    }
    case 'ip4': {
      const m4 = IP4_TERM.exec(rest);
      if (!m4 || !IP4_NETWORK.test(m4[1] ?? ''))
        return invalid(`"${text}": ip4 needs a full IPv4 address with an optional prefix length, such as ip4:192.0.2.0/24`);
      const cidr4 = m4[2] === undefined ? 32 : Number(m4[2]);
      if (cidr4 > 32) return invalid(`"${text}": an IPv4 prefix length is at most 32`);
      return { ...base, network: (m4[1] ?? '').split('.').map(Number), cidr4 };
    }
    case 'ip6': {
      const m6 = IP6_TERM.exec(rest);
      if (!m6 || isIP(m6[1] ?? '') !== 6) return invalid(`"${text}": ip6 needs an IPv6 address with an optional prefix length, such as ip6:2001:db8::/32`);
      const cidr6 = m6[2] === undefined ? 128 : Number(m6[2]);
      if (cidr6 > 128) return invalid(`"${text}": an IPv6 prefix length is at most 128`);
      return { ...base, network: ipaddr.IPv6.parse(m6[1] ?? '').toByteArray(), cidr6 };
    }
  }
  return invalid(`"${text}" is not a known mechanism`);
}

function parseTerm(text: string): TermParse {
  // Mechanisms and modifiers are separated by spaces only (4.6.1); tabs, CR, LF or non-ASCII
  // inside a term make it invalid rather than splitting it (the suite's control-char-policy).
  const bad = [...text].find((ch) => ch.charCodeAt(0) < 0x21 || ch.charCodeAt(0) > 0x7e);
  if (bad !== undefined)
    return invalid(`"${text}" contains the character ${JSON.stringify(bad)}; SPF records are printable ASCII separated by spaces (RFC 7208 3, 4.6.1)`);
  const mod = /^([a-zA-Z][a-zA-Z0-9\-_.]*)=(.*)$/.exec(text);
  if (!mod) return parseMechanism(text);
  const name = (mod[1] ?? '').toLowerCase();
  const value = mod[2] ?? '';
  if (name === 'redirect' || name === 'exp') {
    // Known modifiers are not "greedy" unknown modifiers: a bad domain is an error (the suite's
    // redirect-syntax-error, exp-syntax-error, exp-empty-domain).
    const spec = parseDomainSpec(value);
    return spec.ok ? { kind: 'modifier', text, name, value, tokens: spec.tokens } : invalid(`"${text}": ${spec.error}`);
  }
  const macro = parseMacroString(value);
  return macro.ok ? { kind: 'modifier', text, name, value, tokens: macro.tokens } : invalid(`"${text}": ${macro.error}`);
}

/** True when a TXT string is an SPF version 1 record: "v=spf1" then a space or the end (4.5). */
export function isSpfRecordText(text: string): boolean {
  return /^v=spf1( |$)/i.test(text);
}

/** Parses a record already known to start with "v=spf1" (RFC 7208 4.6, grammar in 12). */
export function parseSpfRecord(text: string): ParsedSpfRecord {
  const terms: SpfTerm[] = [];
  const errors: SpfSyntaxError[] = [];
  let redirect: SpfModifierTerm | null = null;
  let exp: SpfModifierTerm | null = null;
  for (const part of text
    .slice(6)
    .split(' ')
    .filter((p) => p !== '')) {
    const parsed = parseTerm(part);
    if (parsed.kind === 'invalid') {
      terms.push({ kind: 'invalid', text: part, error: parsed.error });
      errors.push({ code: 'syntax_error', term: part, message: parsed.error });
      continue;
    }
    if (parsed.kind === 'modifier' && (parsed.name === 'redirect' || parsed.name === 'exp')) {
      // 6: redirect and exp MUST NOT appear more than once each.
      if ((parsed.name === 'redirect' ? redirect : exp) !== null) {
        const error = `"${part}": the ${parsed.name} modifier appears more than once; a record may have at most one (RFC 7208 6)`;
        terms.push({ kind: 'invalid', text: part, error });
        errors.push({ code: 'duplicate_modifier', term: part, message: error });
        continue;
      }
      if (parsed.name === 'redirect') redirect = parsed;
      else exp = parsed;
    }
    terms.push(parsed);
  }
  const mechanisms = terms.filter((t): t is SpfMechanismTerm => t.kind === 'mechanism');
  return { text, terms, mechanisms, redirect, exp, hasAll: mechanisms.some((m) => m.name === 'all'), errors };
}
