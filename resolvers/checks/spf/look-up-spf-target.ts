import type { DnsAnswer } from '../../../clients/dns/dns-types.js';
import type { SpfMechanismTerm } from './parse-spf-record.js';
import { MAX_NAMES_PER_LOOKUP } from './spf-result.js';
import { lookupExchangeAddresses } from './spf-mechanism-dns.js';
import { lookupFailureText } from './spf-lookup-failure.js';
import { spfFinding } from './spf-findings.js';
import { countStrictVoids, countVoid, stopWalk } from './spf-tree-walk.js';
import type { SpfTreeWalk } from './spf-tree-walk.js';

/** What looking up an a, mx or exists target found, for the term's node. */
export interface SpfTargetLookup {
  readonly isVoid: boolean;
  readonly errors: string[];
}

const isVoid = (answer: DnsAnswer): boolean => !answer.ok && (answer.failure === 'nxdomain' || answer.failure === 'nodata');

/**
 * Looks the target of an a, mx or exists term up as an evaluation for an address of the walk's
 * family would (RFC 7208 5.3, 5.4, 5.7): void lookups follow that family, so an a: name with only
 * AAAA records is void for an IPv4 client.
 */
export async function lookUpSpfTarget(
  walk: SpfTreeWalk,
  term: SpfMechanismTerm,
  name: string,
  current: string,
  path: readonly string[],
): Promise<SpfTargetLookup> {
  if (term.name === 'mx') return lookUpMxTarget(walk, term, name, current, path);
  const { options } = walk;
  const type = term.name === 'exists' ? 'A' : walk.addressType;
  const answer = await options.dns.lookup(name, type);
  if (!answer.ok && !isVoid(answer)) {
    const failure = lookupFailureText(answer);
    walk.dnsFailures.push(failure);
    return { isVoid: false, errors: [failure] };
  }
  if (isVoid(answer)) {
    walk.voidNames.push(name);
    countVoid(walk, term, current, path);
    const why = term.name === 'a' && !options.hasIp ? ' (without ip the audit takes an IPv4 client, which asks for A records: RFC 7208 5.3)' : '';
    return { isVoid: true, errors: [`void lookup: ${name} has no ${type} records${why}`] };
  }
  return { isVoid: false, errors: [] };
}

/** An mx target: its MX records (at most 10 names), then their addresses for the pyspf void count. */
async function lookUpMxTarget(walk: SpfTreeWalk, term: SpfMechanismTerm, name: string, current: string, path: readonly string[]): Promise<SpfTargetLookup> {
  const { options } = walk;
  const mx = await options.dns.lookup(name, 'MX');
  if (isVoid(mx)) {
    walk.voidNames.push(name);
    countVoid(walk, term, current, path);
    return { isVoid: true, errors: [`void lookup: ${name} has no MX records`] };
  }
  if (!mx.ok) {
    const failure = lookupFailureText(mx);
    walk.dnsFailures.push(failure);
    return { isVoid: false, errors: [failure] };
  }
  if (mx.records.length > MAX_NAMES_PER_LOOKUP) {
    const error = `${name} has ${mx.records.length} MX records; an mx mechanism may use at most ${MAX_NAMES_PER_LOOKUP}, so "${term.text}" is a permanent error (RFC 7208 4.6.4)`;
    walk.findings.push(spfFinding('mx_too_many_records', `In the SPF record of ${current}, ${error}. List the mail servers with ip4/ip6 instead.`));
    stopWalk(walk, 'mx_names', term, current, path);
    return { isVoid: false, errors: [error] };
  }
  // Only for the pyspf count: a failed address lookup here is not this check's failure.
  const addresses = await lookupExchangeAddresses(options.dns, mx, options.macro.ip);
  const empty = addresses.filter(isVoid);
  if (empty.length === 0) return { isVoid: false, errors: [] };
  countStrictVoids(walk, term, current, empty.length);
  const one = empty.length === 1;
  return {
    isVoid: false,
    errors: [
      `${empty.map((e) => e.name).join(', ')} ${one ? 'has' : 'have'} no ${walk.addressType} records (pyspf and policyd-spf count ${one ? 'this as a void lookup' : 'these as void lookups'})`,
    ],
  };
}
