import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Claims the key for a placement; false when the account used the key already. */
export async function insertIdempotencyRecord(
  db: Kysely<Database>,
  record: { account_id: number; key: string; request_hash: string; state: string; locked_until: Date },
): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_records')
    .values(record)
    .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function findIdempotencyRecord(db: Kysely<Database>, accountId: number, key: string) {
  return db.selectFrom('idempotency_records').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
}

/** Takes over an unfinished claim whose lock is still `lockedUntil` (compare-and-set); false when another retry took it first. */
export async function takeOverIdempotencyClaim(
  db: Kysely<Database>,
  accountId: number,
  key: string,
  lockedUntil: Date | null,
  newLockedUntil: Date,
): Promise<boolean> {
  const taken = await db
    .updateTable('idempotency_records')
    .set({ locked_until: newLockedUntil })
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('state', '=', 'in_progress')
    .where((eb) => (lockedUntil === null ? eb('locked_until', 'is', null) : eb('locked_until', '=', lockedUntil)))
    .returning('key')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Drops an unfinished claim. */
export async function deleteIdempotencyClaim(db: Kysely<Database>, accountId: number, key: string): Promise<void> {
  await db.deleteFrom('idempotency_records').where('account_id', '=', accountId).where('key', '=', key).where('state', '=', 'in_progress').execute();
}

/** Sets an unfinished claim's lock (the epoch: the next retry takes over at once). */
export async function setIdempotencyClaimLock(db: Kysely<Database>, accountId: number, key: string, lockedUntil: Date): Promise<void> {
  await db
    .updateTable('idempotency_records')
    .set({ locked_until: lockedUntil })
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('state', '=', 'in_progress')
    .execute();
}

/** Records the placement's answer on its key: a retry with the key gets it again. */
export async function completeIdempotencyRecord(db: Kysely<Database>, accountId: number, key: string, orderId: number, response: string): Promise<void> {
  await db
    .updateTable('idempotency_records')
    .set({ state: 'done', order_id: orderId, response, locked_until: null })
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .execute();
}
