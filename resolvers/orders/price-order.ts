import type { Plan, PromotionCode } from '../../db/schema.js';
import { applyPromotion, type AppliedDiscount } from './promotion-codes.js';

export interface OrderPrice {
  readonly unitAmount: number;
  readonly currency: string;
  readonly interval: string;
  readonly mailboxesPerUnit: number;
  /** What every renewal costs: quantity × unit amount. */
  readonly total: number;
  /** The first invoice, with the promotion code applied. */
  readonly firstInvoice: number;
}

export interface PricedOrder {
  readonly quantity: number;
  readonly price: OrderPrice;
  readonly discount: AppliedDiscount | null;
}

/**
 * Quantity and price come from the domains and mailboxes at the caller's plan price, never from the
 * body (SPEC 2.2): one unit per `mailboxes_per_unit` mailboxes, rounded up.
 */
export function priceOrder(plan: Plan, mailboxCount: number, promotion: PromotionCode | null): PricedOrder {
  const quantity = Math.ceil(mailboxCount / Math.max(1, plan.mailboxes_per_unit));
  const total = quantity * plan.unit_amount;
  const discount = promotion ? applyPromotion(promotion, total, plan.interval) : null;
  return {
    quantity,
    price: {
      unitAmount: plan.unit_amount,
      currency: plan.currency,
      interval: plan.interval,
      mailboxesPerUnit: plan.mailboxes_per_unit,
      total,
      firstInvoice: total - (discount?.amount ?? 0),
    },
    discount,
  };
}
