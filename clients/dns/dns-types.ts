import type { QuestionBudget } from './question-budget.js';

/**
 * The DNS engine's vocabulary, shared by every check. A lookup never throws for a DNS outcome:
 * NXDOMAIN, no data, SERVFAIL, REFUSED, timeout and a malformed reply are values, so a check can tell
 * "the record is missing" from "we could not find out" (a failed lookup is never a missing record).
 */
export type DnsRecordType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'CNAME' | 'NS' | 'SOA' | 'CAA' | 'PTR';

export interface MxRecord {
  readonly preference: number;
  readonly exchange: string;
}
export interface SoaRecord {
  readonly mname: string;
  readonly rname: string;
  readonly serial: number;
  readonly refresh: number;
  readonly retry: number;
  readonly expire: number;
  readonly minimum: number;
}
export interface CaaRecord {
  readonly flags: number;
  readonly tag: string;
  readonly value: string;
}

/** Record data per type: A/AAAA/CNAME/NS/PTR are names or addresses; TXT is the list of character-strings. */
export interface DnsRecordData {
  A: string;
  AAAA: string;
  CNAME: string;
  NS: string;
  PTR: string;
  MX: MxRecord;
  TXT: readonly string[];
  SOA: SoaRecord;
  CAA: CaaRecord;
}

export interface DnsRecord<T extends DnsRecordType = DnsRecordType> {
  readonly data: DnsRecordData[T];
  readonly ttl: number;
}

/**
 * nodata: the name exists but has no record of that type. budget: the request has spent its DNS
 * question budget, so the question was not asked. cancelled: the caller hung up or the request's
 * deadline passed, so the question was abandoned. not_recursive: the configured resolver does not
 * recurse (RA clear, or a referral instead of an answer), a configuration error on our side that
 * says nothing about the name.
 */
export type DnsFailureKind = 'nxdomain' | 'nodata' | 'servfail' | 'refused' | 'timeout' | 'malformed' | 'budget' | 'cancelled' | 'not_recursive';

/**
 * What the resolver said about DNSSEC for one answer (RFC 4035 3.2.3, RFC 6840 5.7-5.8), asked with
 * DO in the OPT record and AD in the header: `secure` when it set AD on a NOERROR or NXDOMAIN reply
 * (it validated the answer or the proof of non-existence); `insecure` when such a reply came without
 * AD (an unsigned zone, or a resolver that does not validate); `bogus` when it failed validation
 * (SERVFAIL with an Extended DNS Error saying so: 6-12); `indeterminate` when the reply does not tell
 * (any other SERVFAIL, including EDE 5 "DNSSEC Indeterminate", REFUSED, other rcodes, a server that
 * does not recurse). An answer without `dnssec` got no reply to read (timeout, unusable reply,
 * budget, cancelled): its status is unknown too (docs/dnssec.md).
 */
export type DnssecStatus = 'secure' | 'insecure' | 'bogus' | 'indeterminate';

/** An Extended DNS Error (RFC 8914) from the reply's OPT record. */
export interface ExtendedDnsError {
  readonly code: number;
  /** The code's meaning in plain words ("the DNSSEC signature has expired"). */
  readonly meaning: string;
  /** EXTRA-TEXT the resolver added, if any. */
  readonly text: string | null;
}

/**
 * `canonical`: when the name asked is an alias, the last name of its CNAME chain (the resolver puts
 * the chain in the answer section), so a check can tell an alias without asking CNAME separately.
 */
export type DnsAnswer<T extends DnsRecordType = DnsRecordType> =
  | {
      readonly ok: true;
      readonly name: string;
      readonly type: T;
      readonly records: readonly DnsRecord<T>[];
      readonly dnssec?: DnssecStatus;
      readonly ede?: ExtendedDnsError;
      readonly canonical?: string;
    }
  | {
      readonly ok: false;
      readonly name: string;
      readonly type: T;
      readonly failure: DnsFailureKind;
      readonly detail: string;
      readonly dnssec?: DnssecStatus;
      readonly ede?: ExtendedDnsError;
      readonly canonical?: string;
      /**
       * NXDOMAIN and no-data only: how long a cache may keep this negative answer, the lesser of the
       * SOA's TTL and its minimum field from the authority section (RFC 2308 5); a resolver's copy
       * counts down. Absent when the reply carried no SOA.
       */
      readonly negativeTtl?: number;
    };

/**
 * One question put to one named server without recursion (RD clear), for delegation health: the
 * answer read as a lookup would, plus what only a direct question shows (AA, the referral).
 */
export type DirectReply<T extends DnsRecordType = DnsRecordType> =
  | {
      readonly ok: true;
      readonly server: string;
      readonly name: string;
      readonly type: T;
      readonly rcode: string;
      /** AA: the server answered from a zone it serves (RFC 1035 4.1.1). */
      readonly authoritative: boolean;
      readonly answer: DnsAnswer<T>;
      /** NS names in the authority section when the reply is a referral (lower case, no trailing dot). */
      readonly referral: readonly string[];
      /** Addresses the referral gave for its own NS names (glue, RFC 1034 4.2.1), by name. */
      readonly glue: Readonly<Record<string, readonly string[]>>;
    }
  | { readonly ok: false; readonly server: string; readonly name: string; readonly type: T; readonly failure: DnsFailureKind; readonly detail: string };

/** True for the two outcomes that mean "there is no such record" (as opposed to "we could not tell"). */
export function isMissing(answer: DnsAnswer): boolean {
  return !answer.ok && (answer.failure === 'nxdomain' || answer.failure === 'nodata');
}

/**
 * What checks use. One instance per request: it de-duplicates (name, type) questions within the
 * request and keeps at most the configured number of questions in flight.
 */
export interface DnsLookup {
  lookup<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>>;
  /** Questions sent on the wire by this instance (for benchmarks and tests). */
  readonly questionsAsked: number;
  /**
   * Asks `address` (on the configured authoritative port, 53 outside tests) directly, without
   * recursion, counted against the same budget and cancelled by the same signal. One try with a short
   * timeout of its own (at most 1 s): callers ask several servers at once. Optional so that
   * wrappers of a lookup need not provide it; checks that need it fall back when it is missing.
   */
  askServer?<T extends DnsRecordType>(address: string, name: string, type: T): Promise<DirectReply<T>>;
  /** The request's budget and cancellation, which the HTTPS fetcher and loops in checks honour too. */
  readonly budget?: QuestionBudget;
  readonly signal?: AbortSignal;
}
