import type { DnsAnswer, DnsLookup } from '../../../clients/dns/dns-types.js';
import type { SpfMechanismTerm } from './parse-spf-record.js';
import type { SpfIp } from './spf-ip.js';
import { addressBytes, reverseName } from './spf-ip.js';
import { expandMacros, isQueryableName, targetName } from './expand-spf-macros.js';
import type { SpfMacroContext } from './expand-spf-macros.js';
import { MAX_NAMES_PER_LOOKUP } from './spf-result.js';

/**
 * The DNS questions each mechanism asks, in one place, so that the evaluation and the look-ahead
 * ask exactly the same questions (and the per-request DataLoader answers the second from the first).
 */

/** The <target-name> of a mechanism or modifier: its expanded domain-spec, or the current domain (4.8). */
export async function termTarget(term: { readonly tokens: SpfMechanismTerm['tokens'] }, domain: string, macro: SpfMacroContext): Promise<string> {
  if (term.tokens === null) return domain;
  const only = term.tokens.length === 1 ? term.tokens[0] : undefined;
  if (only?.kind === 'literal') return targetName(only.text).toLowerCase();
  return targetName(await expandMacros(term.tokens, domain, macro)).toLowerCase();
}

export { isQueryableName };

/** a and mx look up the address family of the client (5.3, 5.4). */
export function addressTypeFor(ip: SpfIp): 'A' | 'AAAA' {
  return ip.family === 4 ? 'A' : 'AAAA';
}

export function addressAnswerHas(answer: DnsAnswer<'A' | 'AAAA'>, match: (bytes: readonly number[]) => boolean): boolean {
  return (
    answer.ok &&
    answer.records.some((r) => {
      const bytes = addressBytes(r.data as string);
      return bytes !== null && match(bytes);
    })
  );
}

/** The address answers of an MX's exchanges (the first 10 names only; more is the caller's permerror). */
export function lookupExchangeAddresses(dns: DnsLookup, mx: DnsAnswer<'MX'>, ip: SpfIp): Promise<DnsAnswer<'A' | 'AAAA'>[]> {
  if (!mx.ok) return Promise.resolve([]);
  const names = mx.records
    .slice(0, MAX_NAMES_PER_LOOKUP)
    .map((r) => r.data.exchange.toLowerCase())
    .filter(isQueryableName);
  return Promise.all(names.map((name) => dns.lookup(name, addressTypeFor(ip))));
}

/**
 * 5.5: the client's validated names: PTR names (at most 10, 4.6.4) whose own addresses include the
 * client. A failed PTR lookup gives no names; a failed address lookup skips that name.
 */
export async function validatedNames(dns: DnsLookup, ip: SpfIp): Promise<{ readonly names: string[]; readonly ptr: DnsAnswer<'PTR'> }> {
  const ptr = await dns.lookup(reverseName(ip), 'PTR');
  if (!ptr.ok) return { names: [], ptr };
  const candidates = ptr.records
    .slice(0, MAX_NAMES_PER_LOOKUP)
    .map((r) => r.data.toLowerCase().replace(/\.$/, ''))
    .filter(isQueryableName);
  const answers = await Promise.all(candidates.map((name) => dns.lookup(name, addressTypeFor(ip))));
  const same = (bytes: readonly number[]): boolean => bytes.length === ip.bytes.length && bytes.every((b, i) => b === ip.bytes[i]);
  return {
    names: candidates.filter((_, i) => {
      const answer = answers[i];
      return answer !== undefined && addressAnswerHas(answer, same);
    }),
    ptr,
  };
}

/** True when `name` is `target` or a subdomain of it (5.5), ignoring case. */
export function isSameOrSubdomain(name: string, target: string): boolean {
  const n = name.toLowerCase();
  const t = target.toLowerCase();
  return n === t || n.endsWith(`.${t}`);
}

/**
 * %{p} (7.3): a validated name equal to <domain>, else one below it, else any validated name,
 * else "unknown".
 */
export async function validatedDomainFor(dns: DnsLookup, ip: SpfIp, domain: string): Promise<string> {
  const { names } = await validatedNames(dns, ip);
  return names.find((n) => n === domain.toLowerCase()) ?? names.find((n) => isSameOrSubdomain(n, domain)) ?? names[0] ?? 'unknown';
}
