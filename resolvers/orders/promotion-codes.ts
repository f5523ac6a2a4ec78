import { findPlanSku } from '../../db/plans.js';
import { findPromotionCode } from '../../db/promotion-codes.js';
import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import type { Plan, PromotionCode } from '../../db/schema.js';
import { holdsRedemption } from './promotion-redemptions.js';

export interface AppliedDiscount {
  readonly promotion: PromotionCode;
  readonly code: string;
  readonly percentOff: number | null;
  readonly amountOff: number | null;
  /** once, repeating or forever. */
  readonly duration: string;
  readonly durationInMonths: number | null;
  /** first_invoice, first_N_months (N a number) or every_invoice: how long the code lasts. */
  readonly appliesTo: string;
  /** What it takes off the first invoice, minor units. */
  readonly amount: number;
  readonly description: string;
}

/**
 * The promotion code of an order, or a 400 that says why it cannot apply (SPEC 4.2 rule 4: refused,
 * never ignored): unknown, expired, used up, or for another plan. Preview and place call this alike.
 * Placing takes the redemption before charging (promotion-redemptions.ts), under a lock, so two
 * placements racing for a code's last redemption cannot both get it. `heldByKey`: a placement retried
 * with its Idempotency-Key keeps the redemption it already holds, even when that was the last one.
 */
export async function findPromotion(
  ctx: Context,
  accountId: number,
  plan: Plan,
  raw: string | null | undefined,
  now: Date,
  heldByKey?: string,
): Promise<PromotionCode | null> {
  if (raw === undefined || raw === null) return null;
  const code = raw.trim().toUpperCase();
  if (code === '') throw new DomainError('promotion_code_empty', '"promotion_code" is empty; leave it out, or send the code.');
  const row = await findPromotionCode(ctx.services.db, accountId, code);
  const extras = { promotion_code: code, problems: [] };
  if (!row)
    throw new DomainError('promotion_code_unknown', `The promotion code "${code.slice(0, 40)}" is unknown: check its spelling, or order without it.`, extras);
  if (row.expires_at !== null && new Date(row.expires_at) <= now) {
    throw new DomainError(
      'promotion_code_expired',
      `The promotion code "${code}" expired on ${new Date(row.expires_at).toISOString().slice(0, 10)}; order without it or with another code.`,
      extras,
    );
  }
  if (
    row.max_redemptions !== null &&
    row.times_redeemed >= row.max_redemptions &&
    !(heldByKey && (await holdsRedemption(ctx.services.db, row.id, accountId, heldByKey)))
  ) {
    throw new DomainError(
      'promotion_code_used_up',
      `The promotion code "${code}" has been used the ${row.max_redemptions} time${row.max_redemptions === 1 ? '' : 's'} it allows; order without it or with another code.`,
      extras,
    );
  }
  if (row.plan_id !== null && row.plan_id !== plan.id) {
    const other = await findPlanSku(ctx.services.db, row.plan_id);
    throw new DomainError(
      'promotion_code_wrong_plan',
      `The promotion code "${code}" applies to ${other ? `the plan "${other.sku}"` : 'another plan'} only, not to "${plan.sku}"; order without it or with another code.`,
      extras,
    );
  }
  if (row.amount_off !== null && row.currency !== null && row.currency.toLowerCase() !== plan.currency.toLowerCase()) {
    throw new DomainError(
      'promotion_code_wrong_plan',
      `The promotion code "${code}" takes off an amount in ${row.currency.toUpperCase()}, but "${plan.sku}" is billed in ${plan.currency.toUpperCase()}; order without it.`,
      extras,
    );
  }
  return row;
}

/** What the code takes off one invoice of `total`, and how long it lasts, in words and as a value. */
export function applyPromotion(promotion: PromotionCode, total: number, interval: string): AppliedDiscount {
  // Rounded as the processor rounds: the discounted invoice to the nearest minor unit.
  const amount =
    promotion.percent_off !== null ? total - Math.round((total * (100 - promotion.percent_off)) / 100) : Math.min(total, promotion.amount_off ?? 0);
  const off = promotion.percent_off !== null ? `${promotion.percent_off}% off` : `${formatMoney(promotion.amount_off ?? 0, promotion.currency ?? 'usd')} off`;
  let appliesTo: string;
  let lasts: string;
  if (promotion.duration === 'forever') {
    appliesTo = 'every_invoice';
    lasts = 'every invoice, renewals included';
  } else if (promotion.duration === 'repeating') {
    const months = promotion.duration_in_months ?? 1;
    appliesTo = `first_${months}_months`;
    lasts = `every invoice of the first ${months} month${months === 1 ? '' : 's'}${interval === 'year' ? ' (so the first yearly invoice)' : ''}, then full price`;
  } else {
    appliesTo = 'first_invoice';
    lasts = 'the first invoice only; renewals are at full price';
  }
  return {
    promotion,
    code: promotion.code,
    percentOff: promotion.percent_off,
    amountOff: promotion.amount_off,
    duration: promotion.duration,
    durationInMonths: promotion.duration === 'repeating' ? promotion.duration_in_months : null,
    appliesTo,
    amount,
    description: `${off} ${lasts}.`,
  };
}

export function formatMoney(minor: number, currency: string): string {
  return `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;
}
