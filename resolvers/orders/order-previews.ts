import { findOrderPreview, upsertOrderPreview } from '../../db/order-previews.js';
import { DomainError, operation, sentence } from '../domain-error.js';
import type { Context } from '../context.js';
import type { Plan } from '../../db/schema.js';
import { formatMoney } from './promotion-codes.js';

/**
 * Remembers the plan price an account was shown for one order (by the hash of the checked order),
 * so that placing it after the price changed is a 409 and nothing is charged (issue 5).
 */
export async function rememberPreviewPrice(ctx: Context, accountId: number, orderHash: string, plan: Plan, at: Date): Promise<void> {
  const price = {
    plan_id: plan.id,
    unit_amount: plan.unit_amount,
    currency: plan.currency,
    interval: plan.interval,
    mailboxes_per_unit: plan.mailboxes_per_unit,
    previewed_at: at,
  };
  await upsertOrderPreview(ctx.services.db, accountId, orderHash, price);
}

/** Refuses to place an order whose plan price differs from the one its last preview showed. */
export async function refuseIfPriceChanged(ctx: Context, accountId: number, orderHash: string, plan: Plan): Promise<void> {
  const seen = await findOrderPreview(ctx.services.db, accountId, orderHash);
  if (!seen) return;
  const same =
    seen.plan_id === plan.id &&
    seen.unit_amount === plan.unit_amount &&
    seen.currency === plan.currency &&
    seen.interval === plan.interval &&
    seen.mailboxes_per_unit === plan.mailboxes_per_unit;
  if (same) return;
  throw new DomainError(
    'price_changed',
    sentence`The price of "${plan.sku}" changed since you previewed this order (${formatMoney(seen.unit_amount, seen.currency)} per ${seen.mailboxes_per_unit} mailbox${seen.mailboxes_per_unit === 1 ? '' : 'es'} a ${seen.interval} then, ${formatMoney(plan.unit_amount, plan.currency)} per ${plan.mailboxes_per_unit} a ${plan.interval} now), so nothing was charged. Preview it again (${operation('preview_order')}), then place it.`,
    { previewed_unit_amount: seen.unit_amount, unit_amount: plan.unit_amount, currency: plan.currency },
  );
}
