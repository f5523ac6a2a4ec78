/**
 * The one SPF record a domain should publish: its existing record (or records) with
 * `include:<include>` merged in. Only text here; spf-record-status.ts counts the result's DNS
 * lookups over its whole tree.
 */
export type SpfMerge =
  | {
      readonly ok: true;
      /** The one SPF record the domain should publish. */
      readonly value: string;
      /** The one existing record already includes the provider (nothing to change). */
      readonly unchanged: boolean;
    }
  /** The records cannot be combined without choosing for the customer; `reason` names what to remove. */
  | { readonly ok: false; readonly reason: string };

const ALL = /^[-+~?]?all$/i;
const REDIRECT = /^redirect=/i;
const EXP = /^exp=/i;
/** Most lenient first: two records that disagree on `all` keep the most lenient, so no sender the customer authorised starts failing. */
const ALL_ORDER = ['?all', '~all', '-all'];

/** A term compared as receivers read it: case-insensitive, `+` the default qualifier, no trailing dot on a domain. */
export function spfTermKey(term: string): string {
  return term.toLowerCase().replace(/^\+/, '').replace(/\.$/, '');
}

/** The terms of an SPF record after `v=spf1`, as written. */
export function spfTerms(record: string): string[] {
  return record.trim().split(/\s+/).slice(1);
}

/**
 * Merges `include:<include>`:
 *
 * - none: a fresh record `v=spf1 include:<include> ~all`;
 * - one: every term kept as written, the include placed before `all` or `redirect=` so it is
 *   evaluated (unchanged when it is already there);
 * - several (a permerror today): one record combining them, in an order that does not depend on the
 *   order DNS answered them (the records sorted by text): every mechanism once, the include, then
 *   `all`. Refused (naming the term to remove) where combining would mean choosing for the
 *   customer: a `redirect=`, different `exp=` texts, or a `+all`.
 */
export function mergeSpf(existing: readonly string[], include: string): SpfMerge {
  const wanted = `include:${include}`;
  if (existing.length === 0) return { ok: true, value: `v=spf1 ${wanted} ~all`, unchanged: false };
  if (existing.length === 1) return mergeOne(existing[0]!, include);
  const records = [...existing].map((r) => r.trim()).sort();
  const mechanisms: string[] = [];
  const modifiers: string[] = [];
  const alls = new Set<string>();
  for (const record of records) {
    for (const term of spfTerms(record)) {
      if (REDIRECT.test(term))
        return {
          ok: false,
          reason: `"${record}" ends in ${term}, which cannot be combined with another record: remove that record or its redirect, then apply`,
        };
      if (ALL.test(term)) {
        alls.add(spfTermKey(term));
        continue;
      }
      const list = /^[a-z][a-z0-9_.-]*=/i.test(term) ? modifiers : mechanisms;
      if (!list.some((t) => spfTermKey(t) === spfTermKey(term))) list.push(term);
    }
  }
  const exps = modifiers.filter((t) => EXP.test(t));
  if (exps.length > 1) return { ok: false, reason: `the records explain failures differently (${exps.join(', ')}): remove all but one exp=, then apply` };
  if (alls.has('all'))
    return { ok: false, reason: '+all in one record authorises every server on the internet: remove that term (or that record), then apply' };
  const all = ALL_ORDER.find((a) => alls.has(a));
  const hasInclude = mechanisms.some((t) => isInclude(t, include));
  return { ok: true, value: ['v=spf1', ...mechanisms, ...(hasInclude ? [] : [wanted]), ...(all ? [all] : []), ...modifiers].join(' '), unchanged: false };
}

function mergeOne(existing: string, include: string): SpfMerge {
  const terms = spfTerms(existing);
  if (terms.some((t) => isInclude(t, include))) return { ok: true, value: existing.trim(), unchanged: true };
  const at = terms.findIndex((t) => ALL.test(t) || REDIRECT.test(t));
  const wanted = `include:${include}`;
  const merged = at === -1 ? [...terms, wanted] : [...terms.slice(0, at), wanted, ...terms.slice(at)];
  return { ok: true, value: ['v=spf1', ...merged].join(' '), unchanged: false };
}

function isInclude(term: string, include: string): boolean {
  return spfTermKey(term) === `include:${include}`;
}
