import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Context } from '../../context.js';
import type { Database } from '../../../db/schema.js';
import { insertSetupApply } from '../../../db/setup-applies.js';
import type { DnsPublisher, DnsRecord, JournalRecord, PlannedChange } from '../../../clients/dns-publishing/dns-publisher.js';
import { normalizeRecord, sameRecord } from './plan-changes.js';

/**
 * One RRset (a name and type) a publish touched: every record it held as read from the provider just
 * before the write, and just after. The journal keeps these, not the plan, so a revert can put back
 * exactly what was there (TTLs too) and notice when the zone changed since.
 */
export interface JournalRRset {
  readonly name: string;
  readonly type: string;
  readonly before: readonly JournalRecord[];
  readonly after: readonly JournalRecord[];
}

/**
 * After a successful write: the RRsets the changes touched, `before` from what the plan was made
 * from, `after` read again through the same publisher. When that read fails (the server went away
 * after taking the update) `after` is what the changes made of `before`, so the write is still journaled.
 */
export async function journalOf(publisher: DnsPublisher, changes: readonly PlannedChange[], existing: readonly DnsRecord[]): Promise<JournalRRset[]> {
  const keys = [...new Map(changes.map((c) => normalizeRecord(c.record)).map((r) => [`${r.name}|${r.type}`, { name: r.name, type: r.type }])).values()];
  const present = existing.map(normalizeRecord);
  const sets: JournalRRset[] = [];
  for (const { name, type } of keys) {
    const before = inOrder(present.filter((r) => r.name === name && r.type === type));
    const expected = inOrder([
      ...before.filter((r) => !changes.some((c) => (c.replaces ?? []).some((gone) => sameRecord(normalizeRecord(gone), r)))),
      ...changes.map((c) => normalizeRecord(c.record)).filter((r) => r.name === name && r.type === type),
    ]);
    // readRecords also reports a CNAME at the name (so nothing is planned over an alias): the RRset is the type's alone.
    const after = await publisher.readRecords(name, type).then(
      (read) => inOrder(ofType(read.map(normalizeRecord), type)),
      () => expected,
    );
    sets.push({ name, type, before: withStrings(publisher, before), after: withStrings(publisher, after) });
  }
  return sets;
}

/** The records of one type: a publisher's read may add a CNAME at the name, which is not part of the RRset journaled or reverted. */
export function ofType<T extends DnsRecord>(records: readonly T[], type: string): T[] {
  return records.filter((r) => r.type.toUpperCase() === type.toUpperCase());
}

/** TXT records with their character-strings as the publisher read them (RFC 2136), so a revert writes the same bytes back. */
export function withStrings(publisher: DnsPublisher, records: readonly DnsRecord[]): JournalRecord[] {
  return records.map((r) => {
    const strings = publisher.servedStrings?.(r);
    return strings ? { ...r, strings } : r;
  });
}

/** Same name, type, value, priority and TTL: a revert restores TTLs, so a changed TTL is a change. */
export function sameExactly(a: DnsRecord, b: DnsRecord): boolean {
  return sameRecord(a, b) && a.ttl === b.ttl && (a.priority ?? 0) === (b.priority ?? 0);
}

/** The two lists hold the same records (in any order). */
export function sameRRset(a: readonly DnsRecord[], b: readonly DnsRecord[]): boolean {
  return a.length === b.length && a.every((r) => b.some((s) => sameExactly(r, s))) && b.every((r) => a.some((s) => sameExactly(r, s)));
}

/** The records of `from` that `to` does not hold exactly. */
export function recordsLeaving<T extends DnsRecord>(from: readonly T[], to: readonly DnsRecord[]): T[] {
  return from.filter((r) => !to.some((s) => sameExactly(r, s)));
}

/** One order for a set's records, so equal journals compare and print alike. */
export function inOrder(records: readonly DnsRecord[]): DnsRecord[] {
  return [...records].sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0) || a.ttl - b.ttl);
}

/**
 * Journals one publish (kind apply) or revert of the domain; answers the entry's id. `db` is the
 * service's database or a transaction, so that what a publish means to other records (a ramp step,
 * its event) is written with its journal entry or not at all.
 */
export async function recordSetupApply(
  ctx: Context,
  db: Kysely<Database>,
  entry: { accountId: number; domain: string; connectionId: number; rrsets: readonly JournalRRset[]; revertsApplyId?: number },
): Promise<number> {
  const row = await insertSetupApply(db, {
    account_id: entry.accountId,
    domain: entry.domain,
    connection_id: entry.connectionId,
    kind: entry.revertsApplyId === undefined ? 'apply' : 'revert',
    reverts_apply_id: entry.revertsApplyId ?? null,
    rrsets: JSON.stringify(entry.rrsets),
    applied_at: ctx.now(),
  });
  return row.id;
}

const StoredRecord = z.object({
  type: z.string(),
  name: z.string(),
  value: z.string(),
  ttl: z.number().int(),
  priority: z.number().int().optional(),
  strings: z.array(z.string()).optional(),
});
const StoredRRsets = z.array(z.object({ name: z.string(), type: z.string(), before: z.array(StoredRecord), after: z.array(StoredRecord) }));

/** The stored RRsets of a journal entry. */
export function readJournal(text: string): JournalRRset[] {
  return StoredRRsets.parse(JSON.parse(text));
}
