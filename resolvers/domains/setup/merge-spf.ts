import { MAX_DNS_LOOKUPS } from '../../checks/spf/spf-result.js';

export interface SpfMerge {
  /** The one SPF record the domain should publish. */
  readonly value: string;
  /** Whether the existing record already authorises the provider (nothing to change). */
  readonly unchanged: boolean;
  /** DNS lookups the merged record needs over its whole tree (RFC 7208 4.6.4). */
  readonly lookups: number;
  /** The merge would pass SPF's 10-lookup limit: publishing it would break SPF for every sender. */
  readonly overLimit: boolean;
}

/**
 * Merges `include:<include>` into the domain's existing SPF record: never a second record (two SPF
 * records are a permerror), the include placed before the record's `all` or `redirect=` so it is
 * evaluated, every other term kept as written. `existingLookups` is what our SPF check counted for
 * the record as it is; `includeLookups` what the include costs (itself plus its own tree).
 */
export function mergeSpf(existing: string | null, include: string, existingLookups: number, includeLookups: number): SpfMerge {
  const wanted = `include:${include}`;
  if (existing === null) {
    return { value: `v=spf1 ${wanted} ~all`, unchanged: false, lookups: includeLookups, overLimit: includeLookups > MAX_DNS_LOOKUPS };
  }
  const terms = existing.trim().split(/\s+/).slice(1);
  const has = terms.some(
    (t) =>
      /^\+?include:/i.test(t) &&
      t
        .replace(/^\+?include:/i, '')
        .toLowerCase()
        .replace(/\.$/, '') === include,
  );
  if (has) return { value: existing.trim(), unchanged: true, lookups: existingLookups, overLimit: existingLookups > MAX_DNS_LOOKUPS };
  const at = terms.findIndex((t) => /^[-+~?]?all$/i.test(t) || /^redirect=/i.test(t));
  const merged = at === -1 ? [...terms, wanted] : [...terms.slice(0, at), wanted, ...terms.slice(at)];
  const lookups = existingLookups + includeLookups;
  return { value: ['v=spf1', ...merged].join(' '), unchanged: false, lookups, overLimit: lookups > MAX_DNS_LOOKUPS };
}
