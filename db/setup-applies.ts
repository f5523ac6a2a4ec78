import type { Kysely } from 'kysely';
import type { Database, NewSetupApply, SetupApplyRow } from './schema.js';

export function insertSetupApply(db: Kysely<Database>, apply: NewSetupApply): Promise<SetupApplyRow> {
  return db.insertInto('setup_applies').values(apply).returningAll().executeTakeFirstOrThrow();
}

/** One journal entry of the account's domain, or undefined when it is another account's, another domain's or unknown. */
export function findSetupApply(db: Kysely<Database>, accountId: number, domain: string, applyId: number): Promise<SetupApplyRow | undefined> {
  return db
    .selectFrom('setup_applies')
    .selectAll()
    .where('id', '=', applyId)
    .where('account_id', '=', accountId)
    .where('domain', '=', domain)
    .executeTakeFirst();
}

/** The domain's journal, newest first: at most `limit` entries, with `afterId` only those made before that one. */
export function listSetupApplies(db: Kysely<Database>, accountId: number, domain: string, page: { readonly limit: number; readonly afterId: number | null }) {
  let query = db.selectFrom('setup_applies').selectAll().where('account_id', '=', accountId).where('domain', '=', domain);
  if (page.afterId !== null) query = query.where('id', '<', page.afterId);
  return query.orderBy('id', 'desc').limit(page.limit).execute();
}

/**
 * Marks an apply reverted, only if it is not already: false when another revert got there first, so
 * two reverts at once never both write.
 */
export async function claimSetupApplyRevert(db: Kysely<Database>, applyId: number, now: Date): Promise<boolean> {
  const result = await db.updateTable('setup_applies').set({ reverted_at: now }).where('id', '=', applyId).where('reverted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives a claim back when the revert's write failed: the apply can be reverted again. */
export async function releaseSetupApplyRevert(db: Kysely<Database>, applyId: number): Promise<void> {
  await db.updateTable('setup_applies').set({ reverted_at: null }).where('id', '=', applyId).execute();
}

/** The domain's applies made after `applyId` that still stand (not reverted), newest first: what may have changed its RRsets since. */
export function listStandingAppliesAfter(db: Kysely<Database>, accountId: number, domain: string, applyId: number): Promise<SetupApplyRow[]> {
  return db
    .selectFrom('setup_applies')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('domain', '=', domain)
    .where('kind', '=', 'apply')
    .where('id', '>', applyId)
    .where('reverted_at', 'is', null)
    .orderBy('id', 'desc')
    .execute();
}
