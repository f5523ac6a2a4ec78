import type { QuestionBudget } from './question-budget.js';

/**
 * The DNS engine's vocabulary, shared by every check. A lookup never throws for a DNS outcome:
 * NXDOMAIN, no data, SERVFAIL, REFUSED, timeout and a malformed reply are values, so a check can tell
 * "the record is missing" from "we could not find out" (a failed lookup is never a missing record).
 */
export type DnsRecordType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'CNAME' | 'NS' | 'SOA' | 'CAA' | 'PTR';

export interface MxRecord { readonly preference: number; readonly exchange: string }
export interface SoaRecord {
  readonly mname: string; readonly rname: string; readonly serial: number; readonly refresh: number;
  readonly retry: number; readonly expire: number; readonly minimum: number;
}
export interface CaaRecord { readonly flags: number; readonly tag: string; readonly value: string }

/** Record data per type: A/AAAA/CNAME/NS/PTR are names or addresses; TXT is the list of character-strings. */
export interface DnsRecordData {
  A: string; AAAA: string; CNAME: string; NS: string; PTR: string;
  MX: MxRecord; TXT: readonly string[]; SOA: SoaRecord; CAA: CaaRecord;
}

export interface DnsRecord<T extends DnsRecordType = DnsRecordType> {
  readonly data: DnsRecordData[T];
  readonly ttl: number;
}

/**
 * nodata: the name exists but has no record of that type. budget: the request has spent its DNS
 * question budget, so the question was not asked. cancelled: the caller hung up or the request's
 * deadline passed, so the question was abandoned.
 */
export type DnsFailureKind = 'nxdomain' | 'nodata' | 'servfail' | 'refused' | 'timeout' | 'malformed' | 'budget' | 'cancelled';

export type DnsAnswer<T extends DnsRecordType = DnsRecordType> =
  | { readonly ok: true; readonly name: string; readonly type: T; readonly records: readonly DnsRecord<T>[] }
  | { readonly ok: false; readonly name: string; readonly type: T; readonly failure: DnsFailureKind; readonly detail: string };

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
  /** The request's budget and cancellation, which the HTTPS fetcher and loops in checks honour too. */
  readonly budget?: QuestionBudget;
  readonly signal?: AbortSignal;
}
