import type { DnsLookup } from '../../../clients/dns/dns-types.js';
import type { Finding } from '../check-result.js';
import type { SpfQualifier } from './parse-spf-record.js';
import type { SpfRecordLookup } from './spf-record-lookup.js';
import type { SpfMacroContext } from './expand-spf-macros.js';

/** One term of a record in the answer's `mechanisms` tree. */
export interface SpfTermNode {
  readonly term: string;
  /** null for modifiers and invalid terms. */
  readonly qualifier: SpfQualifier | null;
  /** The mechanism or modifier name ("include", "ip4", "redirect", "exp", ...), or "invalid". */
  readonly mechanism: string;
  /** What follows the name (domain, network, prefix length), or null. */
  readonly value: string | null;
  /** DNS lookups this term itself counts (RFC 7208 4.6.4): 1 for include, a, mx, ptr, exists, redirect. */
  readonly lookups: number;
  /** False for terms never evaluated (after "all", or a redirect in a record with "all"). */
  readonly evaluated: boolean;
  /** The term's lookup found no such name or no records (a "void lookup", 4.6.4). */
  readonly voidLookup: boolean;
  /**
   * True when receivers never get to this term: it comes at or after the point where evaluation
   * stops (the 11th DNS lookup, the 3rd void lookup, an mx with more than 10 names; see
   * `expansion_stopped`). Such a term is listed but not looked up or expanded.
   */
  readonly pastLimit: boolean;
  readonly errors: readonly string[];
  /** The record an include or redirect leads to, expanded; null for other terms. */
  readonly children: SpfRecordNode | null;
}

/** Where the audit stopped expanding, because receivers stop there with permerror (RFC 7208 4.6.4). */
export interface SpfExpansionStop {
  /** dns_lookups: the 11th DNS-querying term; void_lookups: the 3rd void lookup; mx_names: an mx with more than 10 names. */
  readonly reason: 'dns_lookups' | 'void_lookups' | 'mx_names';
  /** The term as written. */
  readonly term: string;
  /** The domain whose record holds the term. */
  readonly domain: string;
  /** 0 for the domain's own record, 1 for a record it includes (or redirects to), and so on. */
  readonly depth: number;
  /** The domains from the checked one down to `domain`. */
  readonly path: readonly string[];
}

/** How pyspf and policyd-spf count: an mx term's address lookups that find nothing are void lookups too. */
export interface SpfStrictVoidCount {
  readonly voidLookups: number;
  /** The term at which those receivers pass 2 void lookups and stop with permerror, or null. */
  readonly stoppedAt: { readonly term: string; readonly domain: string } | null;
}

export interface SpfRecordNode {
  readonly domain: string;
  /** found; none (no SPF record); multiple (more than one: permerror); dns_error (the lookup failed). */
  readonly outcome: 'found' | 'none' | 'multiple' | 'dns_error';
  readonly record: string | null;
  /** Lookups counted by this record and everything it includes. */
  readonly lookups: number;
  readonly voidLookups: number;
  readonly errors: readonly string[];
  readonly mechanisms: readonly SpfTermNode[];
}

export interface SpfTreeAnalysis {
  readonly root: SpfRecordNode;
  /** Problems found term by term (the totals are judged by the caller). */
  readonly findings: readonly Finding[];
  /** Lookups that failed (timeout, SERVFAIL...): the tree is incomplete and the check is an error. */
  readonly dnsFailures: readonly string[];
  readonly voidNames: readonly string[];
  /** Null when the whole tree was within the limits. */
  readonly stopped: SpfExpansionStop | null;
  /** Void lookups counted the pyspf way, for the receiver divergence. */
  readonly strictVoids: SpfStrictVoidCount;
}

export interface AnalyzeSpfOptions {
  readonly dns: DnsLookup;
  readonly record: (domain: string) => Promise<SpfRecordLookup>;
  /** Expands macros; letters that need the client address stay unexpanded when `hasIp` is false. */
  readonly macro: SpfMacroContext;
  readonly hasIp: boolean;
  /** Off only to measure what it saves. */
  readonly lookahead?: boolean;
}

/** Where a record sits: the domain's own policy (itself or reached by redirect), or an include. */
export type SpfPlace = 'policy' | 'include';
