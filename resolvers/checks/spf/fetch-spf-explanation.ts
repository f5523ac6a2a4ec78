import type { DnsLookup } from '../../../clients/dns/dns-types.js';
import type { SpfModifierTerm } from './parse-spf-record.js';
import { parseMacroString } from './spf-macro-string.js';
import { expandMacros, isQueryableName } from './expand-spf-macros.js';
import type { SpfMacroContext } from './expand-spf-macros.js';
import { termTarget } from './spf-mechanism-dns.js';

/**
 * RFC 7208 6.2: the explanation for a fail. Any trouble (unusable name, DNS error, no or several
 * TXT records, bad macro syntax, non-ASCII text) means "as if there were no exp": null. The lookup
 * counts towards neither limit (4.6.4) and is made once, after the result is known.
 */
export async function fetchExplanation(exp: SpfModifierTerm, domain: string, dns: DnsLookup, macro: SpfMacroContext): Promise<string | null> {
  const name = await termTarget(exp, domain, macro);
  if (!isQueryableName(name)) return null;
  const answer = await dns.lookup(name, 'TXT');
  if (!answer.ok || answer.records.length !== 1) return null;
  const text = (answer.records[0]?.data ?? []).join('');
  const parsed = parseMacroString(text, { explanation: true });
  if (!parsed.ok) return null;
  return expandMacros(parsed.tokens, domain, macro);
}
