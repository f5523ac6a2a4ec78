import type { Context } from '../../context.js';
import type { DnsRecord, PlannedChange } from '../../../clients/dns-publishing/dns-publisher.js';
import { openDnsPublisher } from './dns-connections.js';
import { normalizeRecord, planChanges } from './plan-changes.js';
import { journalOf, type JournalRRset } from './apply-journal.js';

export interface PublishResult {
  readonly connectionId: number;
  readonly dryRun: boolean;
  /** The changes made, or with dryRun the ones that would be; empty when the records are already served. */
  readonly changes: readonly PlannedChange[];
  /** After a write: each RRset touched, as read before and after it (the apply journal); null when nothing was written. */
  readonly journal: readonly JournalRRset[] | null;
}

/**
 * Reads what the provider serves at each wanted name and type, plans the changes (plan-changes.ts)
 * and, unless `dryRun`, applies them. Refusals (an unreachable server, a refused key or token) are
 * DomainErrors that say what to change, thrown before anything is written. The caller decides which
 * records are wanted and that the domain is the account's: this function publishes what it is given
 * through the caller's own connection only.
 */
export async function publishRecords(ctx: Context, connectionId: number, wanted: readonly DnsRecord[], dryRun: boolean): Promise<PublishResult> {
  const { publisher } = await openDnsPublisher(ctx, connectionId);
  const records = wanted.map((r) =>
    normalizeRecord({ type: r.type, name: r.name, value: r.value, ttl: r.ttl, ...(r.priority !== undefined && { priority: r.priority }) }),
  );
  const pairs = [...new Map(records.map((r) => [`${r.name}|${r.type}`, r])).values()];
  const existing: DnsRecord[] = [];
  // One at a time: a customer's DNS server is not ours to load, and a setup has only a handful of names.
  for (const { name, type } of pairs) existing.push(...(await publisher.readRecords(name, type)));
  const changes = planChanges(records, existing);
  if (dryRun || changes.length === 0) return { connectionId, dryRun, changes, journal: null };
  await publisher.applyChanges(changes);
  return { connectionId, dryRun, changes, journal: await journalOf(publisher, changes, existing) };
}
