import type { Finding } from '../check-result.js';
import type { SpfTerm } from './parse-spf-record.js';
import { MAX_DNS_LOOKUPS, MAX_VOID_LOOKUPS } from './spf-result.js';
import type { AnalyzeSpfOptions, SpfExpansionStop, SpfStrictVoidCount } from './spf-tree-types.js';

/**
 * Everything one audit of an SPF tree gathers as it walks the records in evaluation order: what it
 * found, and the counters RFC 7208 4.6.4 limits. One walk per `analyzeSpfTree` call; the functions
 * below are the only ones that move the counters.
 */
export interface SpfTreeWalk {
  readonly options: AnalyzeSpfOptions;
  /** The record type an a or mx target is asked for: the client's family (A without ip). */
  readonly addressType: 'A' | 'AAAA';
  readonly findings: Finding[];
  /** Lookups that failed (timeout, SERVFAIL...). */
  readonly dnsFailures: string[];
  readonly voidNames: string[];
  /** Records loaded so far (bounded by MAX_RECORDS in expand-spf-record.ts). */
  recordsExpanded: number;
  /** DNS-querying terms met in evaluation order. */
  lookups: number;
  /** Void lookups met in evaluation order. */
  voids: number;
  /** Void lookups counted the pyspf way (an mx's empty address lookups too). */
  strictVoids: number;
  strictStop: SpfStrictVoidCount['stoppedAt'];
  /** Where receivers stop; null while the tree is within the limits. */
  stopped: SpfExpansionStop | null;
}

export function startSpfTreeWalk(options: AnalyzeSpfOptions): SpfTreeWalk {
  return {
    options,
    addressType: options.macro.ip.family === 4 ? 'A' : 'AAAA',
    findings: [],
    dnsFailures: [],
    voidNames: [],
    recordsExpanded: 0,
    lookups: 0,
    voids: 0,
    strictVoids: 0,
    strictStop: null,
    stopped: null,
  };
}

/** Marks where receivers stop with permerror; terms after it are listed, not looked up. */
export function stopWalk(walk: SpfTreeWalk, reason: SpfExpansionStop['reason'], term: SpfTerm, current: string, path: readonly string[]): void {
  walk.stopped = { reason, term: term.text, domain: current, depth: path.length - 1, path };
}

/** Counts a DNS-querying term; the 11th stops the audit at this term. */
export function countLookup(walk: SpfTreeWalk, term: SpfTerm, current: string, path: readonly string[]): void {
  walk.lookups += 1;
  if (walk.lookups > MAX_DNS_LOOKUPS) stopWalk(walk, 'dns_lookups', term, current, path);
}

/** Counts a void lookup in evaluation order; the third stops the audit at this term. */
export function countVoid(walk: SpfTreeWalk, term: SpfTerm, current: string, path: readonly string[]): void {
  walk.voids += 1;
  countStrictVoids(walk, term, current, 1);
  if (walk.voids > MAX_VOID_LOOKUPS) stopWalk(walk, 'void_lookups', term, current, path);
}

/** Counts `n` void lookups the pyspf way, noting the term where those receivers would stop. */
export function countStrictVoids(walk: SpfTreeWalk, term: SpfTerm, current: string, n: number): void {
  walk.strictVoids += n;
  if (walk.strictStop === null && walk.strictVoids > MAX_VOID_LOOKUPS) walk.strictStop = { term: term.text, domain: current };
}
