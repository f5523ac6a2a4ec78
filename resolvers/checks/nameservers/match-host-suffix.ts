/**
 * Host-name suffix matching on label boundaries: `ns1.cloudflare.com` ends with `cloudflare.com`,
 * `ns1.notcloudflare.com` does not. Provider tables are matched this way, never by substring, since
 * anyone can register a name that merely contains a provider's name.
 */
export function hostHasSuffix(host: string, suffix: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const s = suffix.toLowerCase().replace(/^\./, '').replace(/\.$/, '');
  return h === s || h.endsWith(`.${s}`);
}

/** One provider in a suffix table; `patterns` are for families of names such as Route 53's awsdns-NN. */
export interface SuffixRule<Id extends string = string> {
  readonly id: Id;
  readonly name: string;
  readonly suffixes: readonly string[];
  /** Anchored on a label boundary by the caller: tested against the whole host name. */
  readonly patterns?: readonly RegExp[];
}

/** The first rule of `table` whose suffix or pattern matches `host`, or null. */
export function matchSuffixRule<R extends SuffixRule>(host: string, table: readonly R[]): R | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  for (const rule of table) {
    if (rule.suffixes.some((suffix) => hostHasSuffix(h, suffix))) return rule;
    if (rule.patterns?.some((pattern) => pattern.test(h))) return rule;
  }
  return null;
}
