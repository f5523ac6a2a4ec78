import { createHash } from 'node:crypto';
import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { NoPaymentMethodError, PaymentInProgressError, ProcessorUnavailableError } from '../../clients/payments/payment-errors.js';
import type { OrderInput } from './order-input.js';
import { evaluateOrder } from './preview-order.js';
import { refuseIfPriceChanged } from './order-previews.js';
import { ensureProcessorCustomer } from './processor-customer.js';
import { syncPaymentMethod } from './sync-payment-method.js';
import { hashOf } from './order-hash.js';
import { dieHereIfFaultInjected } from './fault-injection.js';
import { releaseRedemption, reserveRedemption } from './promotion-redemptions.js';
import { releaseDomains, reserveDomains } from './domain-reservations.js';
import { recordOrder, type PlacedOrder } from './record-order.js';
import { checkIdempotencyKey, claimIdempotencyKey, expireIdempotencyClaim, readClaim, releaseIdempotencyKey, type Claim } from './idempotency-records.js';

/** How long a request waits for a concurrent request with its key to finish before answering 409. */
const WAIT_FOR_SAME_KEY_MS = 20_000;

/**
 * POST /v1/orders. In order:
 * 1. The Idempotency-Key is required and well-formed (400).
 * 2. The key is claimed for this account: a finished order with the same key and body is replayed
 *    (`replayed: true`, nothing placed, not counted); the same key with another body is a 409; a
 *    request racing one with its key waits for it and replays it.
 * 3. The 12-per-hour order allowance is counted (every placement attempt except replays, whether or
 *    not the card is accepted).
 * 4. The same checks as preview (sku, promotion code, domains, mailboxes, limits), then the price
 *    against this account's last preview of the same order (409 when it changed).
 * 5. A card must be on file (409, even when the first invoice is free).
 * 6. The processor charges, keyed by the caller's key, so a retry never charges twice; a decline is
 *    a 402 and an unreachable processor a 502, with nothing charged.
 * 7. The order is recorded in one transaction. If the process dies between 6 and 7, the next
 *    retry with the same key takes the claim over and step 6 finds the processor's subscription.
 */
export async function placeOrder(input: OrderInput, rawKey: string | null | undefined, ctx: Context): Promise<PlacedOrder> {
  const key = checkIdempotencyKey(rawKey);
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const claim = await waitForClaim(ctx, accountId, key, hashOf(input));
  if (claim.kind === 'done') return { ...(JSON.parse(claim.response) as PlacedOrder), replayed: true };

  let subscription = null as Awaited<ReturnType<typeof ctx.services.payments.createSubscription>> | null;
  let reservedPromotionId: number | null = null;
  let holdsDomains = false;
  // A recovering attempt takes over from one that may have charged before it stopped: its holds (the
  // code's redemption, the domains) may belong to that charge, so only a first attempt gives them back.
  const giveBackHolds = async () => {
    if (claim.kind === 'recovering') return;
    if (reservedPromotionId !== null) await releaseRedemption(db, reservedPromotionId, accountId, key).catch(() => undefined);
    if (holdsDomains) await releaseDomains(db, accountId, key).catch(() => undefined);
  };
  try {
    // The account's own hourly allowance when the operator set one (read with the key on this request).
    await ctx.services.rateLimits.consume('order', `account:${accountId}`, ctx.knownCaller()?.limits.ordersPerHour ?? undefined);
    const evaluated = await evaluateOrder(input, accountId, ctx, key);
    const { plan, checked, priced, orderHash } = evaluated;
    await refuseIfPriceChanged(ctx, accountId, orderHash, plan);

    const payments = ctx.services.payments;
    const customerId = await ensureProcessorCustomer(ctx, accountId);
    const card = await payments.getPaymentMethod(customerId);
    await syncPaymentMethod(db, accountId, card);
    if (!card) throw new NoPaymentMethodError();
    const priceRef = plan.processor_price_id ?? (payments.kind === 'sandbox' ? `plan_${plan.id}` : null);
    if (!priceRef) {
      throw new DomainError(
        'plan_not_priced',
        `"${plan.sku}" has no price at the payment processor yet, so it cannot be charged; nothing was charged. Ask the operator to set it up.`,
      );
    }
    const reference = orderReference(accountId, key);
    holdsDomains = true;
    await reserveDomains(
      db,
      checked.domains.map((d) => d.domain),
      accountId,
      key,
      ctx.now(),
    );
    if (priced.discount) {
      reservedPromotionId = priced.discount.promotion.id;
      await reserveRedemption(db, priced.discount.promotion, accountId, key);
    }
    subscription = await payments.createSubscription({
      accountId,
      customerId,
      priceRef,
      quantity: priced.quantity,
      expected: { unitAmount: priced.price.unitAmount, currency: priced.price.currency, firstInvoice: priced.price.firstInvoice },
      promotionCode: priced.discount ? (priced.discount.promotion.processor_ref ?? priced.discount.code) : null,
      idempotencyKey: key,
      metadata: { order_reference: reference, sku: plan.sku },
    });
    dieHereIfFaultInjected('exit_after_charge', ctx.services.faults);
    const placed = await recordOrder(db, { accountId, idempotencyKey: key, reference, plan, checked, priced, subscription, now: ctx.now() });
    await ctx.services.jobs?.orderPlaced(placed.orderId);
    return placed;
  } catch (error) {
    if (subscription === null) {
      // Nothing was charged: the key, the domains and the code's redemption are free again (a declined
      // card may be retried). When the processor could not be asked whether it charged, the holds are
      // kept for the retry, which finds the charge by its key if there was one (they lapse otherwise).
      if (!(error instanceof ProcessorUnavailableError && !error.verified)) await giveBackHolds();
      await releaseIdempotencyKey(db, accountId, key).catch(() => undefined);
      throw error;
    }
    if (isDomainTaken(error)) {
      // Another order took one of these domains between our check and our commit. The domain holds
      // taken before the charge make this a hold that lapsed (15 minutes) mid-placement; the charge
      // cannot become an order, so the subscription is ended and the caller told plainly.
      await ctx.services.payments.cancelSubscription(subscription.subscriptionId).catch(() => undefined);
      await giveBackHolds();
      await releaseIdempotencyKey(db, accountId, key).catch(() => undefined);
      throw new DomainError(
        'domain_taken_while_placing',
        `A domain of this order was placed on another order a moment ago, so this order was not recorded and its subscription ${subscription.subscriptionId} was cancelled. ` +
          'If the first invoice was charged, quote that id to support for a refund; then preview again.',
      );
    }
    // Charged but not recorded (the database failed): the next retry with this key recovers it.
    await expireIdempotencyClaim(db, accountId, key).catch(() => undefined);
    throw error;
  }
}

/** Claims the key, waiting while a concurrent request with it runs (placing and reinstating share the account's keys). */
export async function waitForClaim(ctx: Context, accountId: number, key: string, requestHash: string): Promise<Exclude<Claim, { kind: 'busy' }>> {
  const deadline = Date.now() + WAIT_FOR_SAME_KEY_MS;
  let claim = await claimIdempotencyKey(ctx.services.db, accountId, key, requestHash, ctx.now(), ctx.services.faults?.idempotencyClaimMs);
  let pause = 50;
  while (claim.kind === 'busy') {
    if (Date.now() > deadline) throw new PaymentInProgressError();
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 400);
    claim = await readClaim(ctx.services.db, accountId, key, requestHash, ctx.now(), ctx.services.faults?.idempotencyClaimMs);
  }
  return claim;
}

/** The same account and key always give the same reference, so a recovered order keeps it. */
function orderReference(accountId: number, key: string): string {
  return `ORD-${createHash('sha256').update(`${accountId}\u0000${key}`).digest('hex').slice(0, 10).toUpperCase()}`;
}

function isDomainTaken(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error) || String(error.code) !== '23505') return false;
  const constraint = 'constraint' in error ? error.constraint : undefined;
  const message = 'message' in error ? error.message : undefined;
  return /domains_domain/.test(`${String(constraint ?? '')} ${String(message ?? '')}`);
}
