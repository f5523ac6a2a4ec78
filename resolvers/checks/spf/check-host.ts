import type { DnsAnswer, DnsLookup } from '../../../clients/dns/dns-types.js';
import type { ParsedSpfRecord, SpfMechanismTerm } from './parse-spf-record.js';
import type { SpfRecordLookup } from './spf-record-lookup.js';
import { createSpfRecordLookup } from './spf-record-lookup.js';
import type { SpfIp } from './spf-ip.js';
import { ipInNetwork } from './spf-ip.js';
import type { SpfMacroContext } from './expand-spf-macros.js';
import {
  addressAnswerHas,
  addressTypeFor,
  isQueryableName,
  isSameOrSubdomain,
  lookupExchangeAddresses,
  termTarget,
  validatedDomainFor,
  validatedNames,
} from './spf-mechanism-dns.js';
import { MAX_DNS_LOOKUPS, MAX_NAMES_PER_LOOKUP, MAX_VOID_LOOKUPS, SpfAbort, resultOfQualifier } from './spf-result.js';
import type { SpfResult } from './spf-result.js';
import { startSpfLookahead } from './spf-lookahead.js';
import { fetchExplanation } from './fetch-spf-explanation.js';
import { lookupFailureText } from './spf-lookup-failure.js';

export interface CheckHostInput {
  readonly ip: SpfIp;
  /** <domain>: the domain whose policy is evaluated. */
  readonly domain: string;
  /** <sender>: "local@domain" (an empty local-part is taken as "postmaster"). */
  readonly sender: string;
  readonly helo: string;
  readonly receiver?: string;
}

export interface CheckHostOptions {
  readonly dns: DnsLookup;
  readonly now: () => Date;
  /** Shared with the tree so both read one answer per domain (optional). */
  readonly record?: (domain: string) => Promise<SpfRecordLookup>;
  /** Off only to measure what look-ahead saves. */
  readonly lookahead?: boolean;
}

export interface CheckHostResult {
  readonly result: SpfResult;
  /** The term that decided the result (in the evaluated record, or the include that matched), or null. */
  readonly matchedMechanism: string | null;
  /** The exp= text when the result is fail and the deciding record has a usable exp (6.2). */
  readonly explanation: string | null;
  /** Why the result is permerror or temperror, or null. */
  readonly problem: string | null;
  readonly lookupCount: number;
  readonly voidLookupCount: number;
  /**
   * Where pyspf / policyd-spf would pass 2 void lookups (they also count an mx term's address
   * lookups that find nothing) and stop with permerror; null when they would not.
   */
  readonly strictVoidStop: string | null;
}

/** What evaluating one record gave: a result and the record that decided it (for exp=, 6.2). */
interface HostOutcome {
  readonly result: 'pass' | 'fail' | 'softfail' | 'neutral' | 'none';
  readonly term: SpfMechanismTerm | null;
  readonly decidedBy: { readonly domain: string; readonly record: ParsedSpfRecord } | null;
}

/** RFC 7208 4.3: a <domain> that is not a multi-label domain name gives none before any lookup. */
function isValidInitialDomain(domain: string): boolean {
  return !domain.startsWith('[') && domain.includes('.') && isQueryableName(domain.replace(/\.$/, ''));
}

/** The counts of RFC 7208 4.6.4 for one evaluation, and pyspf's stricter void count; each count past its limit throws. */
interface SpfCounters {
  lookups: number;
  voids: number;
  strictVoids: number;
  strictStop: string | null;
  readonly countLookup: (term: string) => void;
  readonly countStrict: (term: string, n: number) => void;
  readonly countVoid: (name: string, term: string) => void;
}

function createSpfCounters(): SpfCounters {
  const counts: SpfCounters = {
    lookups: 0,
    voids: 0,
    strictVoids: 0,
    strictStop: null,
    countLookup: (term) => {
      counts.lookups += 1;
      if (counts.lookups > MAX_DNS_LOOKUPS) {
        throw new SpfAbort(
          'permerror',
          `"${term}" would be DNS lookup number ${counts.lookups}; SPF allows at most ${MAX_DNS_LOOKUPS} per check (RFC 7208 4.6.4)`,
        );
      }
    },
    /** The pyspf count: every void RFC 7208 counts, plus an mx term's empty address lookups. */
    countStrict: (term, n) => {
      counts.strictVoids += n;
      if (counts.strictStop === null && counts.strictVoids > MAX_VOID_LOOKUPS) {
        counts.strictStop = `pyspf and policyd-spf reach void lookup number ${counts.strictVoids} at "${term}" (they count an mx term's address lookups that find nothing) and stop with permerror`;
      }
    },
    countVoid: (name, term) => {
      counts.countStrict(term, 1);
      counts.voids += 1;
      if (counts.voids > MAX_VOID_LOOKUPS) {
        throw new SpfAbort(
          'permerror',
          `${name} is void lookup number ${counts.voids} (no such name or no records); SPF allows at most ${MAX_VOID_LOOKUPS} (RFC 7208 4.6.4)`,
        );
      }
    },
  };
  return counts;
}

/** 5: a lookup error other than "no such name" ends the evaluation with temperror. */
const failed = (answer: DnsAnswer): boolean => !answer.ok && answer.failure !== 'nxdomain' && answer.failure !== 'nodata';
const temperror = (answer: DnsAnswer): SpfAbort => new SpfAbort('temperror', lookupFailureText(answer));

/** What evaluating a mechanism needs: the client, the DNS, the macros, the counts, and check_host itself for include. */
interface MechanismEnv {
  readonly ip: SpfIp;
  readonly dns: DnsLookup;
  readonly macro: SpfMacroContext;
  readonly counts: SpfCounters;
  readonly host: (current: string) => Promise<HostOutcome>;
}

/** Does the mechanism match the client (RFC 7208 5)? Lookups count towards the limits as they are made. */
async function matchesMechanism(term: SpfMechanismTerm, current: string, env: MechanismEnv): Promise<boolean> {
  const { ip, dns, macro, host } = env;
  const { countLookup, countStrict, countVoid } = env.counts;
  switch (term.name) {
    case 'all':
      return true;
    case 'ip4':
      return ip.family === 4 && ipInNetwork(ip, term.network ?? [], term.cidr4 ?? 32);
    case 'ip6':
      return ip.family === 6 && ipInNetwork(ip, term.network ?? [], term.cidr6 ?? 128);
    case 'a': {
      countLookup(term.text);
      const name = await termTarget(term, current, macro);
      if (!isQueryableName(name)) return false;
      const answer = await dns.lookup(name, addressTypeFor(ip));
      if (failed(answer)) throw temperror(answer);
      if (!answer.ok) countVoid(name, term.text);
      return addressAnswerHas(answer, (bytes) => inPrefix(ip, term, bytes));
    }
    case 'mx': {
      countLookup(term.text);
      const name = await termTarget(term, current, macro);
      if (!isQueryableName(name)) return false;
      const mx = await dns.lookup(name, 'MX');
      if (failed(mx)) throw temperror(mx);
      if (!mx.ok) {
        countVoid(name, term.text);
        return false;
      }
      if (mx.records.length > MAX_NAMES_PER_LOOKUP) {
        throw new SpfAbort(
          'permerror',
          `"${term.text}": ${name} has ${mx.records.length} MX records; an mx mechanism may look up at most ${MAX_NAMES_PER_LOOKUP} (RFC 7208 4.6.4)`,
        );
      }
      const answers = await lookupExchangeAddresses(dns, mx, ip);
      // pyspf gathers every exchange's addresses before matching, so its count runs first.
      const empty = answers.filter((a) => !a.ok && !failed(a)).length;
      if (empty > 0) countStrict(term.text, empty);
      if (answers.some((a) => addressAnswerHas(a, (bytes) => inPrefix(ip, term, bytes)))) return true;
      const failure = answers.find(failed);
      if (failure) throw temperror(failure);
      return false;
    }
    case 'ptr': {
      countLookup(term.text);
      const target = await termTarget(term, current, macro);
      // 5.5: a failed PTR lookup is simply no match; a failed address lookup skips that name.
      const { names, ptr } = await validatedNames(dns, ip);
      // A question the request's budget or cancellation kept off the wire got no answer at all:
      // that is not a failed lookup the receiver saw, so the evaluation cannot go on.
      if (!ptr.ok && (ptr.failure === 'budget' || ptr.failure === 'cancelled')) throw temperror(ptr);
      if (!ptr.ok && !failed(ptr)) countVoid(ptr.name, term.text);
      return names.some((n) => isSameOrSubdomain(n, target));
    }
    case 'exists': {
      countLookup(term.text);
      const name = await termTarget(term, current, macro);
      if (!isQueryableName(name)) return false;
      // 5.7: always an A lookup, even for an IPv6 client.
      const answer = await dns.lookup(name, 'A');
      if (failed(answer)) throw temperror(answer);
      if (!answer.ok) countVoid(name, term.text);
      return answer.ok;
    }
    case 'include': {
      countLookup(term.text);
      const name = await termTarget(term, current, macro);
      if (!isQueryableName(name)) throw new SpfAbort('permerror', `"${term.text}" names no valid domain`);
      const inner = await host(name);
      // 5.2: pass matches; fail, softfail, neutral do not; none is a permerror.
      if (inner.result === 'none') throw new SpfAbort('permerror', `"${term.text}": ${name} has no SPF record (RFC 7208 5.2)`);
      return inner.result === 'pass';
    }
  }
}

function inPrefix(ip: SpfIp, term: SpfMechanismTerm, bytes: readonly number[]): boolean {
  return ip.family === 4 ? ipInNetwork(ip, bytes, term.cidr4 ?? 32) : ipInNetwork(ip, bytes, term.cidr6 ?? 128);
}

/**
 * check_host(<ip>, <domain>, <sender>) of RFC 7208 section 4, with the processing limits of 4.6.4,
 * macros (7), and exp= (6.2). Lookups of later terms start early (see spf-lookahead.ts) but their
 * results are applied strictly in record order, and only evaluated terms are counted.
 */
export async function checkHost(input: CheckHostInput, options: CheckHostOptions): Promise<CheckHostResult> {
  const { dns } = options;
  const record = options.record ?? createSpfRecordLookup(dns);
  const { ip } = input;
  const domain = input.domain.toLowerCase().replace(/\.$/, '');
  const at = input.sender.lastIndexOf('@');
  const sender = at <= 0 ? `postmaster@${input.sender.slice(at + 1)}` : input.sender;
  const macro: SpfMacroContext = {
    ip,
    sender,
    helo: input.helo,
    receiver: input.receiver ?? 'unknown',
    now: options.now,
    validatedDomain: (d) => validatedDomainFor(dns, ip, d),
  };
  const counts = createSpfCounters();
  const { countLookup } = counts;
  const env: MechanismEnv = { ip, dns, macro, counts, host };

  async function host(current: string): Promise<HostOutcome> {
    const load = await record(current);
    if (load.kind === 'none') return { result: 'none', term: null, decidedBy: null };
    if (load.kind === 'error') throw new SpfAbort('temperror', load.detail);
    if (load.kind === 'multiple')
      throw new SpfAbort('permerror', `${current} publishes ${load.texts.length} SPF records; there must be exactly one (RFC 7208 4.5)`);
    const parsed = load.record;
    const firstError = parsed.errors[0];
    if (firstError) throw new SpfAbort('permerror', `the SPF record of ${current} has a syntax error: ${firstError.message}`);
    for (const term of parsed.mechanisms) {
      if (await matchesMechanism(term, current, env))
        return { result: resultOfQualifier(term.qualifier), term, decidedBy: { domain: current, record: parsed } };
    }
    const redirect = parsed.redirect;
    if (redirect && !parsed.hasAll) {
      countLookup(redirect.text);
      const name = await termTarget(redirect, current, macro);
      if (!isQueryableName(name)) throw new SpfAbort('permerror', `"${redirect.text}" names no valid domain`);
      const inner = await host(name);
      // 6.1: a redirect to a domain without an SPF record is a permerror, not none.
      if (inner.result === 'none') throw new SpfAbort('permerror', `"${redirect.text}": ${name} has no SPF record (RFC 7208 6.1)`);
      return inner;
    }
    // 4.7: no match and no redirect gives neutral.
    return { result: 'neutral', term: null, decidedBy: { domain: current, record: parsed } };
  }

  if (!isValidInitialDomain(domain)) {
    return {
      result: 'none',
      matchedMechanism: null,
      explanation: null,
      problem: `"${input.domain}" is not a domain name SPF can be checked for (RFC 7208 4.3)`,
      lookupCount: 0,
      voidLookupCount: 0,
      strictVoidStop: null,
    };
  }
  if (options.lookahead !== false) startSpfLookahead(domain, { dns, record, ip, macro });
  try {
    const outcome = await host(domain);
    let explanation: string | null = null;
    const exp = outcome.decidedBy?.record.exp;
    if (outcome.result === 'fail' && exp && outcome.decidedBy) {
      explanation = await fetchExplanation(exp, outcome.decidedBy.domain, dns, macro);
    }
    return {
      result: outcome.result,
      matchedMechanism: outcome.term?.text ?? null,
      explanation,
      problem: outcome.result === 'none' ? `${domain} has no SPF record` : null,
      lookupCount: counts.lookups,
      voidLookupCount: counts.voids,
      strictVoidStop: counts.strictStop,
    };
  } catch (error) {
    if (!(error instanceof SpfAbort)) throw error;
    return {
      result: error.result,
      matchedMechanism: null,
      explanation: null,
      problem: error.problem,
      lookupCount: counts.lookups,
      voidLookupCount: counts.voids,
      strictVoidStop: counts.strictStop,
    };
  }
}
