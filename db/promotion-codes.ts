import type { Kysely } from 'kysely';
import type { Database, NewPromotionCode } from './schema.js';

export function findPromotionCode(db: Kysely<Database>, accountId: number, code: string) {
  return db.selectFrom('promotion_codes').selectAll().where('account_id', '=', accountId).where('code', '=', code).executeTakeFirst();
}

/** The code's redemption counts, its row locked (FOR UPDATE) until the transaction ends. */
export function lockPromotionCode(db: Kysely<Database>, promotionId: number): Promise<{ times_redeemed: number; max_redemptions: number | null }> {
  return db.selectFrom('promotion_codes').select(['times_redeemed', 'max_redemptions']).where('id', '=', promotionId).forUpdate().executeTakeFirstOrThrow();
}

/** Counts `change` more (or, negative, fewer) redemptions of the code, in the database. */
export async function addPromotionCodeRedemptions(db: Kysely<Database>, promotionId: number, change: 1 | -1): Promise<void> {
  await db
    .updateTable('promotion_codes')
    .set((eb) => ({ times_redeemed: change === 1 ? eb('times_redeemed', '+', 1) : eb('times_redeemed', '-', 1) }))
    .where('id', '=', promotionId)
    .execute();
}

export async function insertPromotionCodes(db: Kysely<Database>, codes: readonly NewPromotionCode[]): Promise<void> {
  await db.insertInto('promotion_codes').values(codes).execute();
}

export function listPromotionCodes(db: Kysely<Database>, accountId: number) {
  return db.selectFrom('promotion_codes').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}
