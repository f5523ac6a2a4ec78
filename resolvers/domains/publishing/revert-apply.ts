import type { Context } from '../../context.js';
import { DomainError, operation, sentence } from '../../domain-error.js';
import { claimSetupApplyRevert, findSetupApply, listStandingAppliesAfter, releaseSetupApplyRevert } from '../../../db/setup-applies.js';
import { checkDomainSetup, findSetupDomain } from '../setup/get-domain-setup.js';
import type { BuildState } from '../setup/setup-record.js';
import { inOrder, ofType, readJournal, recordSetupApply, recordsLeaving, sameRRset, withStrings, type JournalRRset } from './apply-journal.js';
import type { DnsPublisher, DnsRecord, JournalRecord } from '../../../clients/dns-publishing/dns-publisher.js';
import { openDnsPublisher } from './dns-connections.js';
import { normalizeRecord } from './plan-changes.js';
import { changeOf, type SetupApplyChange } from './list-setup-applies.js';
import { noteRampRevert } from '../../dmarc-ramp/note-ramp-revert.js';

export interface RevertedApply {
  readonly applyId: number;
  readonly domain: string;
  readonly connectionId: number;
  readonly dryRun: boolean;
  /** Each RRset: `before` what the zone holds now (what the apply left), `after` what the revert puts back. */
  readonly changes: readonly SetupApplyChange[];
  /** The revert's own journal entry; null for a dry run. */
  readonly revertApplyId: number | null;
  /** When the apply was reverted; null for a dry run. */
  readonly revertedAt: Date | null;
  /** The domain's build state, checked again after a real revert; null for a dry run (or with recheck off). */
  readonly buildState: BuildState | null;
  /** Every required record verified after the revert; null for a dry run (or with recheck off). */
  readonly ready: boolean | null;
}

/**
 * POST /v1/domains/{domain}/setup/applies/{apply_id}/revert: puts back exactly the RRsets an apply
 * replaced, removing what it added (docs/domain-publishing.md, "Undo").
 *
 * 1. The apply must be one of this domain's, of the caller's account (404), not a revert's own
 *    entry and not reverted already (409).
 * 2. Every RRset it touched is read again through its connection's server: one that no longer holds
 *    exactly what the apply left (a record, a value or a TTL changed since) refuses the whole revert
 *    with a 409 `conflict` listing each, and nothing is written. The customer's later change wins.
 * 3. A dry run answers the changes. Otherwise the apply is claimed (two reverts at once: one writes),
 *    the records are written in one change per zone, and the claim is given back if the write fails.
 * 4. The revert is journaled as an entry of its own, and the setup is checked again, as after an apply
 *    (unless `options.recheck` is false: an ACME challenge's withdrawal, which is no setup record).
 *    An apply that was a DMARC ramp advance puts the ramp's timeline back a step (note-ramp-revert.ts).
 */
export async function revertSetupApply(
  raw: string,
  applyId: number,
  dryRun: boolean,
  ctx: Context,
  rampNote: { readonly automatic: boolean; readonly reason: string } | null = null,
  options: { readonly recheck?: boolean } = {},
): Promise<RevertedApply> {
  const row = await findSetupDomain(ctx, raw);
  const db = ctx.services.db;
  const entry = await findSetupApply(db, row.account_id, row.domain, applyId);
  if (!entry)
    throw new DomainError(
      'apply_not_found',
      sentence`There is no apply ${applyId} of ${row.domain}; ${operation('list_domain_setup_applies', { domain: row.domain })} lists its applies.`,
    );
  if (entry.kind === 'revert')
    throw new DomainError(
      'not_an_apply',
      sentence`Entry ${applyId} of ${row.domain} is the revert of apply ${entry.reverts_apply_id}, not an apply; to publish those records again, apply the setup (${operation('apply_domain_setup', { domain: row.domain })}).`,
    );
  if (entry.reverted_at) throw alreadyReverted(row.domain, applyId, entry.reverted_at);

  const journal = readJournal(entry.rrsets);
  const { publisher } = await openDnsPublisher(ctx, entry.connection_id).catch((error: unknown) => {
    // The connection the apply wrote through is the only one that may undo it (another may reach another server).
    if (error instanceof DomainError && error.code === 'dns_connection_not_found')
      throw new DomainError(
        'dns_connection_deleted',
        `Apply ${applyId} of ${row.domain} was made through DNS connection ${entry.connection_id}, which was deleted, so it cannot be reverted for you: put back the records listed in its "changes" (before) at your DNS provider by hand.`,
      );
    throw error;
  });
  await refuseChangedSince(db, { accountId: row.account_id, domain: row.domain, applyId }, journal, publisher);

  // Each RRset goes from what the apply left back to what it replaced.
  const plan: JournalRRset[] = journal.map((set) => ({ name: set.name, type: set.type, before: set.after, after: set.before }));
  const remove = plan.flatMap((set) => recordsLeaving(set.before, set.after));
  const add = plan.flatMap((set) => recordsLeaving(set.after, set.before));
  if (dryRun)
    return {
      applyId,
      domain: row.domain,
      connectionId: entry.connection_id,
      dryRun,
      changes: plan.map(changeOf),
      revertApplyId: null,
      revertedAt: null,
      buildState: null,
      ready: null,
    };

  const at = ctx.now();
  if (!(await claimSetupApplyRevert(db, applyId, at))) throw alreadyReverted(row.domain, applyId, null);
  try {
    if (remove.length + add.length > 0) await publisher.rewriteRecords(remove, add);
  } catch (error) {
    await releaseSetupApplyRevert(db, applyId);
    throw error;
  }
  const written: JournalRRset[] = [];
  const unread: JournalRRset[] = [];
  for (const set of plan)
    written.push({
      ...set,
      after: await publisher.readRecords(set.name, set.type).then(
        (read) => withStrings(publisher, inOrder(ofType(read.map(normalizeRecord), set.type))),
        () => {
          unread.push(set);
          return set.after;
        },
      ),
    });
  // A server that answered the update but still serves what the apply left did not revert it: say so
  // rather than record a revert nobody can see (the zone is as it was, so the revert can be tried again).
  const notApplied = written.filter((set, i) => !unread.includes(plan[i]!) && !sameRRset(set.after, plan[i]!.after));
  if (notApplied.length > 0) {
    const stillAsApplied = notApplied.every((set) => sameRRset(set.after, plan[written.indexOf(set)]!.before));
    if (stillAsApplied) await releaseSetupApplyRevert(db, applyId);
    throw new DomainError(
      'dns_update_not_applied',
      `The DNS server of connection ${entry.connection_id} accepted the revert of apply ${applyId} but does not serve it: ${notApplied
        .map((set) => `${set.type} at ${set.name} holds ${show(set.after)} where the revert put ${show(plan[written.indexOf(set)]!.after)}`)
        .join(
          '; ',
        )}. ${stillAsApplied ? 'Nothing changed, so the apply is not marked reverted; check the server and revert again.' : 'The zone is now neither as the apply left it nor as it was before; check the server and put the records listed back by hand.'}`,
    );
  }
  // The revert's journal entry and what it means to the DMARC ramp (its timeline, its event) are
  // written together, so a failure between them cannot leave a revert the ramp does not know of.
  const revertApplyId = await db.transaction().execute(async (trx) => {
    const id = await recordSetupApply(ctx, trx, {
      accountId: row.account_id,
      domain: row.domain,
      connectionId: entry.connection_id,
      rrsets: written,
      revertsApplyId: applyId,
    });
    await noteRampRevert(trx, { accountId: row.account_id, domain: row.domain, applyId, revertApplyId: id, at }, rampNote);
    return id;
  });
  const done = { applyId, domain: row.domain, connectionId: entry.connection_id, dryRun, changes: written.map(changeOf), revertApplyId, revertedAt: at };
  if (options.recheck === false) return { ...done, buildState: null, ready: null };
  const fresh = ctx.services.createCheckContext({ budget: ctx.scope().budget, signal: ctx.scope().signal });
  const after = await checkDomainSetup(row.domain, { ...ctx, checks: () => fresh });
  return {
    applyId,
    domain: row.domain,
    connectionId: entry.connection_id,
    dryRun,
    changes: written.map(changeOf),
    revertApplyId,
    revertedAt: at,
    buildState: after.buildState,
    ready: after.ready,
  };
}

/**
 * Step 2: every RRset the apply touched, read again through its connection's server, must still hold
 * exactly what the apply left; otherwise a 409 `conflict` names each change (and a later apply that
 * likely made it), and nothing is written.
 */
async function refuseChangedSince(
  db: Context['services']['db'],
  apply: { readonly accountId: number; readonly domain: string; readonly applyId: number },
  journal: readonly JournalRRset[],
  publisher: DnsPublisher,
): Promise<void> {
  const { applyId } = apply;
  const now: JournalRRset[] = [];
  for (const set of journal)
    now.push({ ...set, after: withStrings(publisher, inOrder(ofType((await publisher.readRecords(set.name, set.type)).map(normalizeRecord), set.type))) });
  const changed = journal.filter((set, i) => !sameRRset(now[i]!.after, set.after));
  if (changed.length > 0) {
    // A later apply that still stands and wrote one of these RRsets is the likely change: name it, so it can be reverted first.
    const later = (await listStandingAppliesAfter(db, apply.accountId, apply.domain, applyId)).map((r) => ({ id: r.id, sets: readJournal(r.rrsets) }));
    const laterFor = (set: JournalRRset) => later.find((l) => l.sets.some((s) => s.name === set.name && s.type === set.type))?.id ?? null;
    const laterIds = [...new Set(changed.map(laterFor).filter((id) => id !== null))];
    const advice =
      laterIds.length > 0
        ? `Apply ${laterIds.join(' and ')} changed them since: revert ${laterIds.length === 1 ? 'it' : 'those'} first (newest first), then this one.`
        : 'Put those records back as the apply left them to revert it, or change them by hand.';
    throw new DomainError(
      'conflict',
      `The zone changed since apply ${applyId}, so nothing was reverted: ${changed.map((set) => describeChange(set, now[journal.indexOf(set)]!.after)).join('; ')}. ${advice}`,
      {
        conflicts: changed.map((set) => ({
          name: set.name,
          type: set.type,
          left_by_apply: set.after.map(plain),
          now: now[journal.indexOf(set)]!.after.map(plain),
          changed_by_apply_id: laterFor(set),
        })),
      },
    );
  }
}

/** A record without the journal's TXT strings, as answers show records. */
function plain(record: JournalRecord): DnsRecord {
  const { strings: _strings, ...rest } = record;
  return rest;
}

function alreadyReverted(domain: string, applyId: number, at: Date | null): DomainError {
  return new DomainError(
    'already_reverted',
    `Apply ${applyId} of ${domain} was already reverted${at ? ` at ${at.toISOString()}` : ''}; an apply is reverted once. To publish its records again, apply the setup.`,
  );
}

function describeChange(set: JournalRRset, now: readonly DnsRecord[]): string {
  return `${set.type} at ${set.name} now holds ${show(now)} where the apply left ${show(set.after)}`;
}

function show(records: readonly DnsRecord[]): string {
  if (records.length === 0) return 'nothing';
  return records.map((r) => `${r.priority !== undefined && r.type === 'MX' ? `${r.priority} ` : ''}"${r.value}" (TTL ${r.ttl})`).join(', ');
}
