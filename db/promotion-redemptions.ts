import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** This placement's redemption of the code, if it holds one. */
export function findPromotionRedemption(
  db: Kysely<Database>,
  promotionId: number,
  accountId: number,
  key: string,
): Promise<{ idempotency_key: string } | undefined> {
  return db
    .selectFrom('promotion_redemptions')
    .select('idempotency_key')
    .where('promotion_code_id', '=', promotionId)
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function insertPromotionRedemption(db: Kysely<Database>, promotionId: number, accountId: number, key: string): Promise<void> {
  await db.insertInto('promotion_redemptions').values({ promotion_code_id: promotionId, account_id: accountId, idempotency_key: key }).execute();
}

/** Gives back this placement's redemption; false when it held none. */
export async function deletePromotionRedemption(db: Kysely<Database>, promotionId: number, accountId: number, key: string): Promise<boolean> {
  const gone = await db
    .deleteFrom('promotion_redemptions')
    .where('promotion_code_id', '=', promotionId)
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return Number(gone.numDeletedRows) > 0;
}
