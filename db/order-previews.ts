import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Remembers the price a preview showed (the last preview of the same order wins). */
export async function upsertOrderPreview(
  db: Kysely<Database>,
  accountId: number,
  orderHash: string,
  price: { plan_id: number; unit_amount: number; currency: string; interval: string; mailboxes_per_unit: number; previewed_at: Date },
): Promise<void> {
  await db
    .insertInto('order_previews')
    .values({ account_id: accountId, order_hash: orderHash, ...price })
    .onConflict((oc) => oc.columns(['account_id', 'order_hash']).doUpdateSet(price))
    .execute();
}

export function findOrderPreview(db: Kysely<Database>, accountId: number, orderHash: string) {
  return db.selectFrom('order_previews').selectAll().where('account_id', '=', accountId).where('order_hash', '=', orderHash).executeTakeFirst();
}
