import type { Context } from '../../context.js';
import { findSetupApply, listSetupApplies } from '../../../db/setup-applies.js';
import type { SetupApplyRow } from '../../../db/schema.js';
import { invalidCursor, numericCursor, pageOf, readPageArgs, type Page, type PageArgs } from '../../pagination.js';
import { findSetupDomain } from '../setup/get-domain-setup.js';
import { readJournal, recordsLeaving, type JournalRRset } from './apply-journal.js';
import type { DnsRecord } from '../../../clients/dns-publishing/dns-publisher.js';

/** One RRset of a journal entry as the doors show it: before and after, and what left and came. */
export interface SetupApplyChange extends JournalRRset {
  /** Records the write removed (or, for a TTL change, replaced): in `before`, not in `after`. */
  readonly replaced: readonly DnsRecord[];
  /** Records the write added: in `after`, not in `before`. */
  readonly added: readonly DnsRecord[];
}

export interface SetupApply {
  readonly applyId: number;
  readonly kind: 'apply' | 'revert';
  /** For a revert: the apply it undid. */
  readonly revertsApplyId: number | null;
  readonly appliedAt: Date;
  readonly connectionId: number;
  readonly changes: readonly SetupApplyChange[];
  /** When the apply was reverted; null while it stands. */
  readonly revertedAt: Date | null;
}

export function changeOf(set: JournalRRset): SetupApplyChange {
  return { ...set, replaced: recordsLeaving(set.before, set.after), added: recordsLeaving(set.after, set.before) };
}

export function setupApplyOf(row: SetupApplyRow): SetupApply {
  return {
    applyId: row.id,
    kind: row.kind,
    revertsApplyId: row.reverts_apply_id,
    appliedAt: row.applied_at,
    connectionId: row.connection_id,
    changes: readJournal(row.rrsets).map(changeOf),
    revertedAt: row.reverted_at,
  };
}

/**
 * GET /v1/domains/{domain}/setup/applies: the domain's journal of publishes (and their reverts),
 * newest first, a page at a time; `after`/`starting_after` is the apply_id of the last entry of the
 * previous page.
 */
export async function listDomainSetupApplies(raw: string, args: PageArgs, ctx: Context): Promise<Page<SetupApply>> {
  const row = await findSetupDomain(ctx, raw);
  const request = readPageArgs(args);
  const db = ctx.services.db;
  let afterId: number | null = null;
  if (request.after !== null) {
    afterId = numericCursor(request.after);
    if (afterId === null || !(await findSetupApply(db, row.account_id, row.domain, afterId)))
      throw invalidCursor(`the apply_id of an apply of ${row.domain}`, request.after);
  }
  const rows = await listSetupApplies(db, row.account_id, row.domain, { limit: request.limit + 1, afterId });
  return pageOf(rows.map(setupApplyOf), request, (a) => String(a.applyId));
}
