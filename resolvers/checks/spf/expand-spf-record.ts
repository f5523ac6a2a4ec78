import type { SpfMechanismTerm, SpfModifierTerm, SpfTerm } from './parse-spf-record.js';
import { spfFinding } from './spf-findings.js';
import { judgeSpfRecord } from './judge-spf-record.js';
import { spfTermTarget } from './spf-term-target.js';
import { spfTermNode } from './spf-term-node.js';
import type { SpfTreeWalk } from './spf-tree-walk.js';
import type { SpfPlace, SpfRecordNode, SpfTermNode } from './spf-tree-types.js';

/** A tree is not expanded past this many records, so a record that fans out cannot run away. */
const MAX_RECORDS = 60;

/**
 * One record of the tree and everything it includes or redirects to, its terms judged in
 * evaluation order (RFC 7208 4.6.2, 6.1): the mechanisms left to right, then the redirect wherever
 * it is written. The nodes keep the order the terms are written in.
 */
export async function expandSpfRecord(walk: SpfTreeWalk, current: string, path: readonly string[], place: SpfPlace): Promise<SpfRecordNode> {
  walk.recordsExpanded += 1;
  const load = await walk.options.record(current);
  const empty = { domain: current, lookups: 0, voidLookups: 0, mechanisms: [] };
  if (load.kind === 'none') return { ...empty, outcome: 'none', record: null, errors: [load.detail] };
  if (load.kind === 'error') {
    walk.dnsFailures.push(load.detail);
    return { ...empty, outcome: 'dns_error', record: null, errors: [load.detail] };
  }
  if (load.kind === 'multiple') {
    const error = `${current} publishes ${load.texts.length} SPF records; there must be exactly one, so SPF fails with permerror (RFC 7208 4.5)`;
    if (path.length > 1) walk.findings.push(spfFinding('multiple_spf_records', error));
    return { ...empty, outcome: 'multiple', record: load.texts.join(' | '), errors: [error] };
  }
  const parsed = load.record;
  walk.findings.push(...judgeSpfRecord(parsed, current, place));
  const allIndex = parsed.terms.findIndex((t) => t.kind === 'mechanism' && t.name === 'all');
  const evaluatedAt = (term: SpfTerm, index: number): boolean =>
    !(allIndex >= 0 && index > allIndex && term.kind === 'mechanism') && !(term.kind === 'modifier' && term.name === 'redirect' && parsed.hasAll);
  const nodeAt = (term: SpfTerm, index: number): Promise<SpfTermNode> =>
    spfTermNode(walk, term, { current, path, place, evaluated: evaluatedAt(term, index), follow: followSpfTerm });
  const nodes: SpfTermNode[] = new Array<SpfTermNode>(parsed.terms.length);
  let redirect: { readonly term: SpfTerm; readonly index: number } | null = null;
  for (const [index, term] of parsed.terms.entries()) {
    if (term.kind === 'modifier' && term.name === 'redirect') {
      redirect = { term, index };
      continue;
    }
    nodes[index] = await nodeAt(term, index);
  }
  if (redirect !== null) nodes[redirect.index] = await nodeAt(redirect.term, redirect.index);
  const counted = nodes.filter((n) => n.evaluated);
  return {
    domain: current,
    outcome: 'found',
    record: parsed.text,
    lookups: counted.reduce((sum, n) => sum + n.lookups + (n.children?.lookups ?? 0), 0),
    voidLookups: counted.reduce((sum, n) => sum + (n.voidLookup ? 1 : 0) + (n.children?.voidLookups ?? 0), 0),
    errors: parsed.errors.map((e) => e.message),
    mechanisms: nodes,
  };
}

/** Expands the record an include or redirect leads to, unless it loops, depends on the address or the tree is full. */
async function followSpfTerm(
  walk: SpfTreeWalk,
  term: SpfMechanismTerm | SpfModifierTerm,
  current: string,
  path: readonly string[],
  place: SpfPlace,
): Promise<{ errors: string[]; children: SpfRecordNode | null }> {
  const kind = term.kind === 'modifier' ? 'redirect' : 'include';
  const name = await spfTermTarget(walk.options, term.tokens, current);
  if (name === null) return { errors: ['the target depends on the connecting address, so it is not expanded here'], children: null };
  if (path.includes(name)) {
    const loop = [...path, name].join(' → ');
    walk.findings.push(
      spfFinding(
        'spf_loop',
        `"${term.text}" in the SPF record of ${current} leads back to ${name} (${loop}); receivers give up with permerror once the lookup limit is reached. Remove the loop.`,
      ),
    );
    return { errors: [`loop: ${loop}`], children: null };
  }
  if (walk.recordsExpanded >= MAX_RECORDS) return { errors: [`not expanded: the tree already has ${MAX_RECORDS} records`], children: null };
  const children = await expandSpfRecord(walk, name, [...path, name], kind === 'redirect' && place === 'policy' ? 'policy' : 'include');
  const errors: string[] = [];
  if (children.outcome === 'none') {
    const error = `${name} has no SPF record, so "${term.text}" is a permanent error (permerror, RFC 7208 ${kind === 'include' ? '5.2' : '6.1'})`;
    errors.push(error);
    walk.findings.push(
      spfFinding(
        kind === 'include' ? 'include_without_spf' : 'redirect_without_spf',
        `In the SPF record of ${current}, ${error}; remove it or point it at a domain that publishes SPF.`,
      ),
    );
  }
  return { errors, children };
}
