import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import type { OrderInput } from './order-input.js';
import type { DomainProblems } from './order-problems.js';
import { findOrderablePlan } from './find-orderable-plan.js';
import { findPromotion, type AppliedDiscount } from './promotion-codes.js';
import { checkOrder, type CheckedOrder } from './check-order.js';
import { priceOrder, type OrderPrice, type PricedOrder } from './price-order.js';
import { hashOf } from './order-hash.js';
import { rememberPreviewPrice } from './order-previews.js';
import type { Plan } from '../../db/schema.js';

export interface OrderPreview {
  readonly ok: boolean;
  readonly sku: string;
  readonly product: string;
  readonly domains: number;
  readonly mailboxes: number;
  readonly quantity: number;
  readonly price: OrderPrice;
  readonly discount: AppliedDiscount | null;
  /** Warnings grouped by domain (errors are a 400); empty when none. */
  readonly problems: readonly DomainProblems[];
}

export interface EvaluatedOrder {
  readonly plan: Plan;
  readonly checked: CheckedOrder;
  readonly priced: PricedOrder;
  /** Identifies "the same order" for the price-change rule: the checked, normalised order. */
  readonly orderHash: string;
}

/** What preview and place both run, in the same order, so a passing preview is accepted. */
export async function evaluateOrder(input: OrderInput, accountId: number, ctx: Context, idempotencyKey?: string): Promise<EvaluatedOrder> {
  const now = ctx.now();
  const plan = await findOrderablePlan(ctx, accountId, input.sku);
  const promotion = await findPromotion(ctx, accountId, plan, input.promotionCode, now, idempotencyKey);
  const checked = await checkOrder(input, accountId, ctx);
  const priced = priceOrder(plan, checked.mailboxCount, promotion);
  const orderHash = hashOf({ sku: plan.sku, promotion: promotion?.code ?? null, domains: checked.domains });
  return { plan, checked, priced, orderHash };
}

/** POST /v1/orders/preview: checks and prices an order; creates nothing (it remembers the price shown). */
export async function previewOrder(input: OrderInput, ctx: Context): Promise<OrderPreview> {
  const accountId = await requireAccountId(ctx);
  const { plan, checked, priced, orderHash } = await evaluateOrder(input, accountId, ctx);
  await rememberPreviewPrice(ctx, accountId, orderHash, plan, ctx.now());
  return {
    ok: true,
    sku: plan.sku,
    product: plan.product,
    domains: checked.domains.length,
    mailboxes: checked.mailboxCount,
    quantity: priced.quantity,
    price: priced.price,
    discount: priced.discount,
    problems: checked.warnings,
  };
}
