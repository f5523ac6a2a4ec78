import { findCancellationSuspendedMailboxesOfOrder } from '../../db/mailboxes.js';
import { reinstateOrderOnSubscription } from '../../db/orders.js';
import { findPlanById } from '../../db/plans.js';
import { completeIdempotencyRecord } from '../../db/idempotency-records.js';
import type { OrderStatus } from '../../db/status-values.js';
import { DomainError, operation, sentence } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { CardDeclinedError, NoPaymentMethodError } from '../../clients/payments/payment-errors.js';
import type { SubscriptionResult } from '../../clients/payments/payment-processor.js';
import { orderStatusFromProcessor } from '../../clients/payments/processor-statuses.js';
import { ensureProcessorCustomer } from './processor-customer.js';
import { syncPaymentMethod } from './sync-payment-method.js';
import { hashOf } from './order-hash.js';
import { recordInvoice } from './record-invoice.js';
import { findReinstatableOrder, type OrderToReinstate } from './reinstatement-checks.js';
import { checkIdempotencyKey, expireIdempotencyClaim, releaseIdempotencyKey } from './idempotency-records.js';
import { waitForClaim } from './place-order.js';

export interface ReinstatedOrder {
  readonly orderId: number;
  readonly reference: string;
  /** The order's own handle (its paths), unchanged by reinstating. */
  readonly subscriptionId: string;
  /** The new subscription at the payment processor that pays for the order from now on. */
  readonly processorSubscriptionId: string;
  readonly status: OrderStatus;
  /** What the new subscription's first invoice charged. */
  readonly charged: { readonly amount: number; readonly currency: string };
  /** What every renewal costs, minor units. */
  readonly total: number;
  /** How many suspended mailboxes the reactivation job takes up again. */
  readonly mailboxesToReactivate: number;
  readonly replayed: boolean;
}

/**
 * POST /v1/orders/{order_id}/reinstate, the money rules of placing (place-order.ts) for one order:
 * 1. The Idempotency-Key is required; a finished reinstatement with the same key is replayed
 *    (`replayed: true`, nothing charged), the same key for another request is a 409.
 * 2. The order must be the caller's, cancelled, within its grace period, its domains held by no one
 *    else (reinstatement-checks.ts), and a card on file; else a refusal, nothing charged.
 * 3. The processor starts a new subscription for the order's plan and quantity and charges its first
 *    invoice, keyed by the order and the caller's key, so a retry never charges twice; a decline is a
 *    402 with nothing charged and the order left cancelled.
 * 4. In one transaction the order becomes active on the new subscription (guarded by `cancelled`),
 *    its invoice is recorded and the answer stored for replays. A crash between 3 and 4 is recovered
 *    by the next retry with the key (the processor finds the subscription by it).
 * 5. The reactivate_mailboxes job takes the suspended mailboxes up again at the provider.
 */
export async function reinstateOrder(orderId: number, rawKey: string | null | undefined, ctx: Context): Promise<ReinstatedOrder> {
  const key = checkIdempotencyKey(rawKey, 'reinstatement');
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const claim = await waitForClaim(ctx, accountId, key, hashOf({ operation: 'reinstate_order', orderId }));
  if (claim.kind === 'done') {
    // The answer this key stored when it finished (written by recordReinstatement below).
    const stored: ReinstatedOrder = JSON.parse(claim.response);
    return { ...stored, replayed: true };
  }
  let subscription: SubscriptionResult | null = null;
  try {
    const order = await findReinstatableOrder(db, accountId, orderId, ctx.now());
    subscription = await chargeNewSubscription(ctx, accountId, order, key);
    const reinstated = await recordReinstatement(ctx, accountId, key, order, subscription);
    await ctx.services.jobs?.orderReinstated(order.id);
    return reinstated;
  } catch (error) {
    if (subscription === null) {
      // Nothing was charged: the key is free again (a declined card may be retried with it).
      await releaseIdempotencyKey(db, accountId, key).catch(() => undefined);
      throw error;
    }
    if (error instanceof DomainError) {
      // Reinstated by another request between our check and our commit: this charge is ended.
      await ctx.services.payments.cancelSubscription(subscription.subscriptionId).catch(() => undefined);
      await releaseIdempotencyKey(db, accountId, key).catch(() => undefined);
      throw error;
    }
    // Charged but not recorded (the database failed): the next retry with this key recovers it.
    await expireIdempotencyClaim(db, accountId, key).catch(() => undefined);
    throw error;
  }
}

/** Step 3: a new subscription on the card on file for the order's plan and quantity, at the plan's price now. */
async function chargeNewSubscription(ctx: Context, accountId: number, order: OrderToReinstate, key: string): Promise<SubscriptionResult> {
  const payments = ctx.services.payments;
  const plan = await findPlanById(ctx.services.db, order.plan_id);
  const priceRef = plan?.processor_price_id ?? (plan && payments.kind === 'sandbox' ? `plan_${plan.id}` : null);
  if (!plan || !priceRef)
    throw new DomainError(
      'plan_not_priced',
      `The plan of the order ${order.reference} has no price at the payment processor now, so it cannot be charged; nothing was charged. Ask the operator to set it up.`,
    );
  const customerId = await ensureProcessorCustomer(ctx, accountId);
  const card = await payments.getPaymentMethod(customerId);
  await syncPaymentMethod(ctx.services.db, accountId, card);
  const total = order.quantity * plan.unit_amount;
  try {
    if (!card) throw new NoPaymentMethodError();
    return await payments.createSubscription({
      accountId,
      customerId,
      priceRef,
      quantity: order.quantity,
      expected: { unitAmount: plan.unit_amount, currency: plan.currency, firstInvoice: total },
      // Its own key space: a placement's key can never find (or replay) a reinstatement's subscription.
      idempotencyKey: `reinstate:${order.id}:${key}`,
      metadata: { order_reference: order.reference, sku: plan.sku, reinstates: order.subscription_id },
    });
  } catch (error) {
    if (error instanceof CardDeclinedError)
      throw new DomainError(
        'card_declined',
        sentence`The card on file was declined, so nothing was charged and the order ${order.reference} stays cancelled, its mailboxes suspended. Save another card with the setup link (${operation('create_card_setup_link')}), then reinstate the order again.`,
        { decline_code: error.declineCode },
      );
    if (error instanceof NoPaymentMethodError)
      throw new DomainError(
        'no_payment_method',
        sentence`No card is on file, so nothing was charged and the order ${order.reference} stays cancelled. Open the link from ${operation('create_card_setup_link')} in a browser to save a card, then reinstate the order again.`,
      );
    throw error;
  }
}

/** Step 4: the order active on its new subscription, the invoice and the stored answer, in one transaction. */
async function recordReinstatement(
  ctx: Context,
  accountId: number,
  key: string,
  order: OrderToReinstate,
  subscription: SubscriptionResult,
): Promise<ReinstatedOrder> {
  const now = ctx.now();
  const status = orderStatusFromProcessor(subscription.status) ?? 'incomplete';
  const suspended = await findCancellationSuspendedMailboxesOfOrder(ctx.services.db, order.id);
  const plan = await findPlanById(ctx.services.db, order.plan_id);
  return ctx.services.db.transaction().execute(async (trx) => {
    if (!(await reinstateOrderOnSubscription(trx, order.id, subscription.subscriptionId, status, now)))
      throw new DomainError(
        'order_not_cancelled',
        `The order ${order.reference} was reinstated by another request a moment ago, so this one's subscription ${subscription.subscriptionId} was cancelled. If it was charged, quote that id to support for a refund.`,
      );
    if (subscription.invoice) {
      const number = subscription.invoice.number ?? `INV-${order.reference.replace(/^ORD-/, '')}-R${Math.floor(now.getTime() / 1000)}`;
      await recordInvoice(trx, accountId, order.id, { ...subscription.invoice, number }, null, now);
    }
    const total = order.quantity * (plan?.unit_amount ?? 0);
    const answer: ReinstatedOrder = {
      orderId: order.id,
      reference: order.reference,
      subscriptionId: order.subscription_id,
      processorSubscriptionId: subscription.subscriptionId,
      status,
      charged: {
        amount: subscription.latestInvoice?.amountPaid ?? total,
        currency: subscription.latestInvoice?.currency ?? plan?.currency ?? 'usd',
      },
      total,
      mailboxesToReactivate: suspended.length,
      replayed: false,
    };
    await completeIdempotencyRecord(trx, accountId, key, order.id, JSON.stringify(answer));
    return answer;
  });
}
