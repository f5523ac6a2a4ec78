/**
 * What a publisher writes and reads: one resource record, its name a fully qualified domain name
 * without the trailing dot, a TXT value as one string (publishers split it into 255-byte strings on
 * the wire), an MX value the exchange host with the preference in `priority`.
 */
export interface DnsRecord {
  readonly type: string;
  readonly name: string;
  readonly value: string;
  readonly ttl: number;
  readonly priority?: number;
}

/** One step of a publish: add a record, or add it in place of the records in `replaces` (removed in the same change). */
export interface PlannedChange {
  readonly action: 'add' | 'replace';
  readonly record: DnsRecord;
  readonly replaces?: readonly DnsRecord[];
}

/**
 * A customer's DNS provider, reached through one of their connections (RFC 2136 with TSIG, or
 * Cloudflare's API). readRecords answers what the provider serves now at one name and type;
 * applyChanges makes every change or none (a provider refusal throws a DnsPublishingError and leaves the
 * zone as it was where the provider allows: RFC 2136 updates are one atomic message).
 */
export interface DnsPublisher {
  readRecords(name: string, type: string): Promise<DnsRecord[]>;
  applyChanges(changes: readonly PlannedChange[]): Promise<void>;
  /**
   * Removes `remove` and adds `add` (each zone in one change, as applyChanges): how a revert puts an
   * apply's RRsets back (resolvers/domains/publishing/apply-journal.ts). Every record in `remove` was read through this publisher
   * first; a TXT in `add` with `strings` is written as exactly those character-strings.
   */
  rewriteRecords(remove: readonly DnsRecord[], add: readonly JournalRecord[]): Promise<void>;
  /** A TXT record's character-strings (base64 each) as the server split it, when this publisher read it and can tell. */
  servedStrings?(record: DnsRecord): readonly string[] | undefined;
}

/** A record as the apply journal keeps it: a TXT also with its character-strings as served (base64 each), so a revert writes back the same bytes. */
export interface JournalRecord extends DnsRecord {
  readonly strings?: readonly string[];
}

/** A name as publishers read and write it: lower case, without the trailing dot. */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}
