import { addPromotionCodeRedemptions, lockPromotionCode } from '../../db/promotion-codes.js';
import { deletePromotionRedemption, findPromotionRedemption, insertPromotionRedemption } from '../../db/promotion-redemptions.js';
import type { Kysely } from 'kysely';
import type { Database, PromotionCode } from '../../db/schema.js';
import { DomainError } from '../domain-error.js';

/**
 * Takes one of a code's redemptions for a placement before the card is charged, so two placements
 * racing for a code's last redemption cannot both get it: the code's row is locked while it is
 * counted. A retry of the same placement (same Idempotency-Key) keeps the redemption it already holds,
 * so a placement that crashed after charging is recorded on retry even if that was the last one.
 */
export async function reserveRedemption(db: Kysely<Database>, promotion: PromotionCode, accountId: number, key: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const code = await lockPromotionCode(trx, promotion.id);
    const held = await findPromotionRedemption(trx, promotion.id, accountId, key);
    if (held) return;
    if (code.max_redemptions !== null && code.times_redeemed >= code.max_redemptions) {
      throw new DomainError(
        'promotion_code_used_up',
        `The promotion code "${promotion.code}" has just been used the ${code.max_redemptions} time${code.max_redemptions === 1 ? '' : 's'} it allows; nothing was charged. Order without it or with another code.`,
        { promotion_code: promotion.code, problems: [] },
      );
    }
    await insertPromotionRedemption(trx, promotion.id, accountId, key);
    await addPromotionCodeRedemptions(trx, promotion.id, 1);
  });
}

/** Gives a redemption back when its placement charged nothing (declined, refused, processor down). */
export async function releaseRedemption(db: Kysely<Database>, promotionId: number, accountId: number, key: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const gone = await deletePromotionRedemption(trx, promotionId, accountId, key);
    if (gone) {
      await addPromotionCodeRedemptions(trx, promotionId, -1);
    }
  });
}

/** Whether this placement already holds a redemption of the code (a retry after a crash). */
export async function holdsRedemption(db: Kysely<Database>, promotionId: number, accountId: number, key: string): Promise<boolean> {
  return (await findPromotionRedemption(db, promotionId, accountId, key)) !== undefined;
}
