import { parse as parseDomain } from 'tldts';
import type { CheckContext } from '../check-context.js';
import { statusFromFindings, type CheckResultBase, type Finding } from '../check-result.js';
import type { DnsAnswer, DnsLookup } from '../../../clients/dns/dns-types.js';
import { normalizeDomain } from '../normalize-domain.js';
import { organizationalDomain } from '../organizational-domain.js';

export interface CheckCnameInput {
  /** The host to follow, such as a tracking subdomain (track.example.com). */
  readonly host: string;
  /** Where the chain should lead, such as the host name the sending service gave you. */
  readonly expected?: string | null;
}

export interface CnameHop {
  readonly name: string;
  readonly target: string;
  readonly ttl: number;
}

export interface CheckCnameAnswer extends CheckResultBase {
  readonly host: string;
  readonly hostUnicode?: string;
  readonly expected: string | null;
  readonly chain: readonly CnameHop[];
  /** Where the chain ends: the last name, and its IPv4 and IPv6 addresses. */
  readonly final: { readonly name: string; readonly addresses: readonly string[] };
  /** With `expected`: whether the chain ends at it or passes through it; null without `expected`. */
  readonly matchesExpected: boolean | null;
}

/** RFC 1034 has no hop limit; resolvers give up around 8 to 16, and a longer chain is a mistake. */
const MAX_HOPS = 16;

const failed = (answer: DnsAnswer): boolean => !answer.ok && answer.failure !== 'nxdomain' && answer.failure !== 'nodata';
const fingerprint = (answer: DnsAnswer): string => (answer.ok ? JSON.stringify(answer.records.map((r) => r.data)) : '');
/** Names compare without case (RFC 4343) and without a trailing dot; zones may publish targets in any case. */
const sameName = (a: string, b: string): boolean => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/**
 * A DNS panel that expects relative names appends the zone to a target typed without a trailing dot:
 * "tracking.esp.com" in zone example.com becomes "tracking.esp.com.example.com". We recognise it
 * when the target is <something>.<zone> and <something> is itself a full name: it ends with the zone
 * again, or lies under a real public suffix. Returns the name the user meant, or null.
 */
function zoneAppended(owner: string, target: string): string | null {
  const zone = organizationalDomain(owner);
  if (zone === null || !target.endsWith(`.${zone}`)) return null;
  const meant = target.slice(0, -(zone.length + 1));
  // The zone twice in a row ("track.example.com.example.com") is never meant.
  if (meant === zone || meant.endsWith(`.${zone}`)) return meant;
  const parsed = parseDomain(meant, { allowPrivateDomains: true, extractHostname: false });
  return parsed.domain !== null && (parsed.isIcann === true || parsed.isPrivate === true) ? meant : null;
}

/**
 * Whether `name` holds SOA or NS records of its own (it is a zone apex or a delegation point), which
 * a CNAME may not share (RFC 1034 section 3.6.2, RFC 2181 section 10.1). The resolver chases the
 * CNAME, so an answer for `name` that is identical to the one for its target is the target's.
 */
async function hasOwnZoneRecords(dns: DnsLookup, name: string, target: string): Promise<boolean | null> {
  const [soa, ns, targetSoa, targetNs] = await Promise.all([
    dns.lookup(name, 'SOA'),
    dns.lookup(name, 'NS'),
    dns.lookup(target, 'SOA'),
    dns.lookup(target, 'NS'),
  ]);
  if (failed(soa) || failed(ns)) return null;
  const own = (mine: DnsAnswer, theirs: DnsAnswer): boolean => mine.ok && (!theirs.ok || fingerprint(mine) !== fingerprint(theirs));
  return own(soa, targetSoa) || own(ns, targetNs);
}

/** How following the chain stopped: at a name without a CNAME, in a loop, past MAX_HOPS, or on a failed lookup. */
type ChainEnd = 'end' | 'loop' | 'too_long' | 'failed';

interface FollowedChain {
  readonly chain: CnameHop[];
  /** The last name reached. */
  readonly name: string;
  readonly apexCheck: Promise<boolean | null> | null;
  readonly ended: ChainEnd;
  readonly failure: string;
  readonly firstAnswer: DnsAnswer<'CNAME'> | null;
}

/** Follows the CNAMEs from `host`, hop by hop; a target with the zone appended is a finding on the way. */
async function followChain(host: string, ctx: CheckContext, findings: Finding[]): Promise<FollowedChain> {
  const chain: CnameHop[] = [];
  const seen = new Set([host]);
  let name = host;
  let apexCheck: Promise<boolean | null> | null = null;
  let ended: ChainEnd = 'too_long';
  let failure = '';
  let firstAnswer: DnsAnswer<'CNAME'> | null = null;

  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    const answer = await ctx.dns.lookup(name, 'CNAME');
    firstAnswer ??= answer;
    if (failed(answer)) {
      ended = 'failed';
      failure = answer.ok ? '' : answer.detail;
      break;
    }
    const record = answer.ok ? answer.records[0] : undefined;
    if (record === undefined) {
      ended = 'end';
      break;
    }
    // Shown as published, followed and compared in lower case: LB.ESP-Track.NET is lb.esp-track.net.
    const target = record.data.toLowerCase().replace(/\.$/, '');
    chain.push({ name, target, ttl: record.ttl });
    if (hop === 0 && organizationalDomain(host) !== host) apexCheck = hasOwnZoneRecords(ctx.dns, host, target);
    const meant = zoneAppended(name, target);
    if (meant !== null) {
      findings.push({
        severity: 'error',
        code: 'cname_zone_appended',
        message: `The CNAME at ${name} points to ${target}, which looks like ${meant} with the zone appended: the DNS panel added your zone to a target typed without a trailing dot. Set the target to "${meant}." (with the final dot), or as your panel expects a full name.`,
      });
    }
    if (seen.has(target)) {
      ended = 'loop';
      break;
    }
    seen.add(target);
    name = target;
  }
  return { chain, name, apexCheck, ended, failure, firstAnswer };
}

/** Where the chain ended: its addresses (or why it has none), or the loop or overlong chain as a finding. */
async function readChainEnd(
  followed: { readonly host: string; readonly name: string; readonly ended: ChainEnd; readonly chain: readonly CnameHop[] },
  ctx: CheckContext,
  findings: Finding[],
): Promise<{ addresses: string[]; finalProblem: Finding | null; addressLookupFailed: boolean }> {
  const { host, name, ended, chain } = followed;
  let addresses: string[] = [];
  let finalProblem: Finding | null = null;
  let addressLookupFailed = false;
  if (ended === 'end') {
    const [a, aaaa] = await Promise.all([ctx.dns.lookup(name, 'A'), ctx.dns.lookup(name, 'AAAA')]);
    addresses = [...(a.ok ? a.records.map((r) => r.data) : []), ...(aaaa.ok ? aaaa.records.map((r) => r.data) : [])];
    if (addresses.length === 0 && (failed(a) || failed(aaaa))) {
      addressLookupFailed = true;
    } else if (addresses.length === 0 && chain.length > 0) {
      const nx = !a.ok && a.failure === 'nxdomain';
      finalProblem = nx
        ? {
            severity: 'error',
            code: 'cname_dangling',
            message: `The chain ends at ${name}, which does not exist (NXDOMAIN): the CNAME is dangling, so the host does not resolve (and whoever registers that name could take the host over). Point the CNAME at the host name your provider gave you.`,
          }
        : {
            severity: 'error',
            code: 'cname_no_address',
            message: `The chain ends at ${name}, which has no A or AAAA record, so ${host} does not resolve to an address. Check the target with your provider.`,
          };
    }
  } else if (ended === 'loop') {
    findings.push({
      severity: 'error',
      code: 'cname_loop',
      message: `The CNAME chain loops back to ${chain.at(-1)!.target}, so ${host} never resolves. Point one of the names in the loop at the real host.`,
    });
  } else {
    findings.push({
      severity: 'error',
      code: 'cname_chain_too_long',
      message: `The CNAME chain from ${host} is longer than ${MAX_HOPS} hops; resolvers give up long before. Point ${host} directly at the final host.`,
    });
  }
  return { addresses, finalProblem, addressLookupFailed };
}

export async function checkCname(input: CheckCnameInput, ctx: CheckContext): Promise<CheckCnameAnswer> {
  const { domain: host, unicode } = normalizeDomain(input.host, 'host', { allowUnderscore: true });
  const expected =
    input.expected != null && input.expected.trim() !== '' ? normalizeDomain(input.expected, 'expected', { allowUnderscore: true }).domain : null;
  const echo = { host, ...(unicode ? { hostUnicode: unicode } : {}), expected };

  const findings: Finding[] = [];
  const { chain, name, apexCheck, ended, failure, firstAnswer } = await followChain(host, ctx, findings);

  if (ended === 'failed') {
    return {
      ...echo,
      chain,
      final: { name, addresses: [] },
      matchesExpected: null,
      status: 'error',
      summary: `Following the CNAME chain from ${host} failed at ${name}, so we cannot tell where it leads; try again.`,
      findings: [...findings, { severity: 'error', code: 'cname_lookup_failed', message: `Looking up CNAME ${name} failed: ${failure}.` }],
    };
  }

  const { addresses, finalProblem, addressLookupFailed } = await readChainEnd({ host, name, ended, chain }, ctx, findings);

  if (chain.length === 0) {
    const nx = firstAnswer !== null && !firstAnswer.ok && firstAnswer.failure === 'nxdomain';
    findings.push(
      nx
        ? {
            severity: 'error',
            code: 'cname_missing',
            message: `${host} does not exist (NXDOMAIN). Create a CNAME record for it at your DNS provider${expected ? ` pointing to ${expected}` : ''}.`,
          }
        : {
            severity: 'error',
            code: 'cname_missing',
            message: `${host} has no CNAME record${addresses.length > 0 ? ` (it resolves directly to ${addresses.join(', ')})` : ''}. Replace its records with a CNAME${expected ? ` pointing to ${expected}` : ' pointing to the host your provider gave you'}.`,
          },
    );
  }
  if (finalProblem) findings.push(finalProblem);

  if (chain.length > 0) {
    const isApex = organizationalDomain(host) === host || (await apexCheck) === true;
    if (isApex) {
      findings.push({
        severity: 'error',
        code: 'cname_at_apex',
        message: `${host} is the apex of its zone, where a CNAME is not allowed (it cannot sit beside the SOA, NS and MX records, RFC 1034 section 3.6.2): mail and other records there break. Use a subdomain such as track.${host}, or your DNS provider's ALIAS/flattening record.`,
      });
    }
  }

  let matches: boolean | null = null;
  if (expected !== null) {
    // "Ends at or passes through": sending services often chain their own names after the one they
    // ask you to point at, and the host still reaches them.
    matches = chain.some((hop) => sameName(hop.target, expected)) || (chain.length > 0 && sameName(name, expected));
    if (!matches && chain.length > 0) {
      findings.push({
        severity: 'error',
        code: 'cname_unexpected_target',
        message: `The chain from ${host} ends at ${name}, not at ${expected}. Change the CNAME at ${chain[0]!.name} to point to ${expected}.`,
      });
    }
  }

  if (addressLookupFailed) {
    return {
      ...echo,
      chain,
      final: { name, addresses },
      matchesExpected: matches,
      status: 'error',
      summary: `The chain from ${host} ends at ${name}, but looking up its addresses failed; try again.`,
      findings: [...findings, { severity: 'error', code: 'cname_lookup_failed', message: `Looking up the addresses of ${name} failed.` }],
    };
  }

  const status = statusFromFindings(findings);
  const path = [host, ...chain.map((h) => h.target)].join(' -> ');
  const summary =
    chain.length === 0
      ? `${host} has no CNAME record.`
      : ended === 'loop'
        ? `The CNAME chain from ${host} loops: ${path}.`
        : `${path}${addresses.length > 0 ? ` (${addresses.length} address${addresses.length > 1 ? 'es' : ''})` : ''}${status === 'pass' ? '' : `; ${findings.filter((f) => f.severity === 'error').length} problem(s) found`}.`;
  return { ...echo, chain, final: { name, addresses }, matchesExpected: matches, status, summary, findings };
}
