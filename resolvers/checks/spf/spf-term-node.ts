import type { SpfMechanismTerm, SpfModifierTerm, SpfTerm } from './parse-spf-record.js';
import { MAX_DNS_LOOKUPS } from './spf-result.js';
import { spfFinding } from './spf-findings.js';
import { lookUpSpfTarget } from './look-up-spf-target.js';
import { mechanismValue } from './spf-term-value.js';
import { spfTermTarget } from './spf-term-target.js';
import { countLookup } from './spf-tree-walk.js';
import type { SpfTreeWalk } from './spf-tree-walk.js';
import type { SpfExpansionStop, SpfPlace, SpfRecordNode, SpfTermNode } from './spf-tree-types.js';

/** Where an include or redirect leads, expanded (given by the record walk, which owns the recursion). */
export type FollowSpfTerm = (
  walk: SpfTreeWalk,
  term: SpfMechanismTerm | SpfModifierTerm,
  current: string,
  path: readonly string[],
  place: SpfPlace,
) => Promise<{ errors: string[]; children: SpfRecordNode | null }>;

/** Where a term sits: the record's domain, the path down to it, and the kind of record. */
interface TermPlace {
  readonly current: string;
  readonly path: readonly string[];
  readonly place: SpfPlace;
  readonly evaluated: boolean;
  readonly follow: FollowSpfTerm;
}

const LOOKUP_TERMS: ReadonlySet<string> = new Set(['include', 'a', 'mx', 'ptr', 'exists']);

/** One term's node, counted and judged in evaluation order; same key order for every node, so the JSON reads the same whatever the term. */
export async function spfTermNode(walk: SpfTreeWalk, term: SpfTerm, at: TermPlace): Promise<SpfTermNode> {
  const n = await unorderedTermNode(walk, term, at);
  return {
    term: n.term,
    qualifier: n.qualifier,
    mechanism: n.mechanism,
    value: n.value,
    lookups: n.lookups,
    evaluated: n.evaluated,
    voidLookup: n.voidLookup,
    pastLimit: n.pastLimit,
    errors: n.errors,
    children: n.children,
  };
}

async function unorderedTermNode(walk: SpfTreeWalk, term: SpfTerm, at: TermPlace): Promise<SpfTermNode> {
  if (term.kind === 'invalid') {
    return {
      term: term.text,
      qualifier: null,
      mechanism: 'invalid',
      value: null,
      lookups: 0,
      evaluated: at.evaluated,
      voidLookup: false,
      pastLimit: walk.stopped !== null,
      errors: [term.error],
      children: null,
    };
  }
  const isLookup = term.kind === 'modifier' ? term.name === 'redirect' : LOOKUP_TERMS.has(term.name);
  if (at.evaluated && walk.stopped === null && isLookup) countLookup(walk, term, at.current, at.path);
  if (at.evaluated && walk.stopped !== null) return listedNode(term, isLookup, walk.stopped);
  if (term.kind === 'modifier') return modifierNode(walk, term, at);
  return mechanismNode(walk, term, at);
}

/** A term receivers never reach: listed with what it would count, not looked up or judged. */
function listedNode(term: SpfMechanismTerm | SpfModifierTerm, isLookup: boolean, stop: SpfExpansionStop): SpfTermNode {
  const error =
    term.text === stop.term && stop.reason === 'dns_lookups'
      ? `not looked up: this would be DNS lookup number ${MAX_DNS_LOOKUPS + 1}; receivers stop here with permerror (RFC 7208 4.6.4)`
      : 'not looked up: receivers stop before this term (see expansion_stopped)';
  return {
    term: term.text,
    qualifier: term.kind === 'mechanism' ? term.qualifier : null,
    mechanism: term.name,
    value: term.kind === 'mechanism' ? mechanismValue(term) : term.value,
    lookups: isLookup ? 1 : 0,
    evaluated: true,
    voidLookup: false,
    pastLimit: true,
    errors: [error],
    children: null,
  };
}

async function modifierNode(walk: SpfTreeWalk, term: SpfModifierTerm, at: TermPlace): Promise<SpfTermNode> {
  const base = { term: term.text, qualifier: null, mechanism: term.name, value: term.value, evaluated: at.evaluated, voidLookup: false, pastLimit: false };
  if (term.name === 'exp') return { ...base, lookups: 0, errors: [], children: null };
  if (term.name !== 'redirect') {
    walk.findings.push(
      spfFinding('unknown_modifier', `The SPF record of ${at.current} has the modifier "${term.text}", which SPF does not define; receivers ignore it.`),
    );
    return { ...base, lookups: 0, errors: [], children: null };
  }
  if (!at.evaluated) return { ...base, lookups: 1, errors: ['ignored: the record has an "all" mechanism (RFC 7208 6.1)'], children: null };
  const { errors, children } = await at.follow(walk, term, at.current, at.path, at.place);
  return { ...base, lookups: 1, errors, children };
}

async function mechanismNode(walk: SpfTreeWalk, term: SpfMechanismTerm, at: TermPlace): Promise<SpfTermNode> {
  const { current, path, evaluated } = at;
  const base = { term: term.text, qualifier: term.qualifier, mechanism: term.name, value: mechanismValue(term), evaluated, pastLimit: false };
  const plain = { ...base, voidLookup: false, errors: [], children: null };
  switch (term.name) {
    case 'all':
      if (term.qualifier === '+' && evaluated) {
        walk.findings.push(
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
        walk.findings.push(
          spfFinding(
            'ptr_mechanism',
            `"${term.text}" in the SPF record of ${current} uses the ptr mechanism, which RFC 7208 (5.5) says not to use: it is slow, unreliable and some receivers skip it. List the servers with ip4/ip6 or a instead.`,
          ),
        );
      }
      return { ...plain, lookups: 1 };
    case 'include': {
      if (!evaluated) return { ...plain, lookups: 1 };
      const { errors, children } = await at.follow(walk, term, current, path, 'include');
      return { ...base, lookups: 1, voidLookup: false, errors, children };
    }
    case 'a':
    case 'mx':
    case 'exists': {
      if (!evaluated) return { ...plain, lookups: 1 };
      const name = await spfTermTarget(walk.options, term.tokens, current);
      if (name === null) return { ...plain, lookups: 1 };
      const checked = await lookUpSpfTarget(walk, term, name, current, path);
      return { ...base, lookups: 1, voidLookup: checked.isVoid, errors: checked.errors, children: null };
    }
  }
}
