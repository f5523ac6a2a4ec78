import { BUILD_STATES, type BuildState } from '../../../db/status-values.js';
import type { DomainCode } from '../../domain-codes.js';

/**
 * The vocabulary of a domain's setup: what a record is for, its DNS type, what our checks found, and
 * the build states. Each list is the one source for the GraphQL enums, OpenAPI and MCP.
 */
export const RECORD_PURPOSES = ['mx', 'spf', 'dkim', 'dmarc', 'forwarding', 'verification', 'tls_rpt'] as const;
export type RecordPurpose = (typeof RECORD_PURPOSES)[number];

export const RECORD_TYPES = ['MX', 'TXT', 'A', 'CNAME'] as const;
export type SetupRecordType = (typeof RECORD_TYPES)[number];

/**
 * verified: published as wanted. missing: nothing of the kind at that name. wrong: something is
 * there but not what is wanted (`found` says what). conflict: what is there fights the wanted record
 * (two SPF records, an MX of another provider, a merge past SPF's 10 lookups). unknown: the lookup
 * failed (timeout, SERVFAIL), so we cannot tell; a failed lookup is never reported as missing.
 * delegated: the name is an alias (CNAME) of a record hosted elsewhere (a hosted DMARC policy): it
 * is changed there, never overwritten here.
 */
export const RECORD_STATUSES = ['verified', 'missing', 'wrong', 'conflict', 'unknown', 'delegated'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

// The build states live beside the domains table's column type (db/status-values.ts).
export { BUILD_STATES, type BuildState };

export function isBuildState(value: string): value is BuildState {
  return (BUILD_STATES as readonly string[]).includes(value);
}

/**
 * One record a domain needs. Names are fully qualified, lower case, without the trailing dot; a TXT
 * value is the whole text (split into 255-byte strings only when written to a zone). The publishing
 * side uses a record of this same shape.
 */
export interface WantedRecord {
  readonly purpose: RecordPurpose;
  readonly type: SetupRecordType;
  readonly name: string;
  readonly value: string;
  readonly ttl: number;
  /** MX only. */
  readonly priority?: number;
  /** Whether `live` waits for it; optional records (verification, TLS-RPT) do not hold a domain back. */
  readonly required: boolean;
}

export interface WantedRecordWithStatus extends WantedRecord {
  readonly status: RecordStatus;
  /** What the DNS holds at that name and type (MX as "priority host"), when not verified; [] when nothing. */
  readonly found: readonly string[];
  /** A sentence: what was found and what to change. */
  readonly detail: string;
  /**
   * Set when publishing `value` for the customer would be unsafe (a merge past 10 SPF lookups, SPF
   * records that cannot be combined without choosing for them, two DMARC records): an apply
   * refuses with it and writes nothing.
   */
  readonly refusal?: PublishRefusal;
}

export interface PublishRefusal {
  readonly code: DomainCode;
  readonly detail: string;
}

export interface DomainSetup {
  readonly domain: string;
  readonly buildState: BuildState;
  /** Every required record is verified. */
  readonly ready: boolean;
  /** Why the domain is not live yet or needs attention (a sentence); null when live. */
  readonly reason: string | null;
  readonly checkedAt: string;
  /** Where the records were read: the zone's name servers, a publish's connection, or (none found) the resolver. */
  readonly readFrom: string;
  /**
   * When resolvers may still give the old answer for a record the zone already serves changed (the
   * resolver's remaining TTL, or the zone's negative TTL for a name cached as missing); null when
   * the resolver already agrees with the zone.
   */
  readonly cachesMayHoldUntil: string | null;
  /** The same in a sentence naming the records; null with it. */
  readonly cacheNote: string | null;
  readonly records: readonly WantedRecordWithStatus[];
}

/** One hour: short enough that a fix shows soon, long enough not to load anyone's DNS. */
export const SETUP_TTL = 3600;
