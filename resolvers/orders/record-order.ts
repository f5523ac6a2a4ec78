import { deleteDomainReservations } from '../../db/domain-reservations.js';
import { insertDomains } from '../../db/domains.js';
import { completeIdempotencyRecord } from '../../db/idempotency-records.js';
import { insertMailboxes } from '../../db/mailboxes.js';
import { insertOrder } from '../../db/orders.js';
import type { Kysely } from 'kysely';
import type { Database, Plan } from '../../db/schema.js';
import type { OrderStatus } from '../../db/status-values.js';
import type { SubscriptionResult } from '../../clients/payments/payment-processor.js';
import { orderStatusFromProcessor } from '../../clients/payments/processor-statuses.js';
import type { CheckedOrder } from './check-order.js';
import type { PricedOrder } from './price-order.js';
import { recordInvoice } from './record-invoice.js';

export interface PlacedOrder {
  readonly orderId: number;
  readonly reference: string;
  readonly subscriptionId: string;
  readonly sku: string;
  readonly status: OrderStatus;
  readonly quantity: number;
  readonly domains: number;
  readonly mailboxes: number;
  readonly charged: { readonly amount: number; readonly currency: string };
  readonly total: number;
  readonly replayed: boolean;
}

export interface RecordOrderInput {
  readonly accountId: number;
  readonly idempotencyKey: string;
  readonly reference: string;
  readonly plan: Plan;
  readonly checked: CheckedOrder;
  readonly priced: PricedOrder;
  readonly subscription: SubscriptionResult;
  readonly now: Date;
}

/**
 * Records a charged order in one transaction: the order, its domains (queued, on the dashboard at
 * once) and mailboxes, the first invoice, and the stored answer for replays. (The code's redemption
 * was taken before the charge: promotion-redemptions.ts.)
 */
export async function recordOrder(db: Kysely<Database>, input: RecordOrderInput): Promise<PlacedOrder> {
  const { accountId, plan, checked, priced, subscription, now } = input;
  // A new subscription's status is active, trialing or incomplete; one this code does not know is
  // recorded as incomplete (not paid for), never active.
  const status = orderStatusFromProcessor(subscription.status) ?? 'incomplete';
  return db.transaction().execute(async (trx) => {
    const order = await insertOrder(trx, {
      account_id: accountId,
      plan_id: plan.id,
      reference: input.reference,
      subscription_id: subscription.subscriptionId,
      status,
      quantity: priced.quantity,
      unit_amount: priced.price.unitAmount,
      currency: priced.price.currency,
      interval: priced.price.interval,
      processor_subscription_id: subscription.subscriptionId,
      first_invoice: priced.price.firstInvoice,
      promotion_code_id: priced.discount?.promotion.id ?? null,
    });
    const domainRows = await insertDomains(
      trx,
      checked.domains.map((d) => ({
        account_id: accountId,
        order_id: order.id,
        workspace_id: null,
        domain: d.domain,
        build_state: 'queued',
        forward_to: d.forwardTo,
        watched_since: null,
      })),
    );
    const idOf = new Map(domainRows.map((r) => [r.domain, r.id]));
    const mailboxes = checked.domains.flatMap((d) =>
      d.mailboxes.map((m) => ({ domain_id: idOf.get(d.domain)!, first_name: m.firstName, last_name: m.lastName, local_part: m.localPart })),
    );
    for (let i = 0; i < mailboxes.length; i += 500) await insertMailboxes(trx, mailboxes.slice(i, i + 500));
    // The sandbox's invoices have no number of their own; the order's reference makes one a person can quote.
    if (subscription.invoice) {
      await recordInvoice(
        trx,
        accountId,
        order.id,
        { ...subscription.invoice, number: subscription.invoice.number ?? `INV-${input.reference.replace(/^ORD-/, '')}-1` },
        null,
        now,
      );
    }
    const placed: PlacedOrder = {
      orderId: order.id,
      reference: input.reference,
      subscriptionId: subscription.subscriptionId,
      sku: plan.sku,
      status,
      quantity: priced.quantity,
      domains: checked.domains.length,
      mailboxes: checked.mailboxCount,
      charged: {
        amount: subscription.latestInvoice?.amountPaid ?? priced.price.firstInvoice,
        currency: subscription.latestInvoice?.currency ?? priced.price.currency,
      },
      total: priced.price.total,
      replayed: false,
    };
    // The domains are on the order now (the unique index guards them); their holds are no longer needed.
    await deleteDomainReservations(trx, accountId, input.idempotencyKey);
    await completeIdempotencyRecord(trx, accountId, input.idempotencyKey, order.id, JSON.stringify(placed));
    return placed;
  });
}
