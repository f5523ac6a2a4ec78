import { findAccountByCustomer } from '../../db/accounts.js';
import { applySubscriptionStatus, findOrderBySubscription } from '../../db/orders.js';
import type Stripe from 'stripe';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Services } from '../context.js';
import { log } from '../../observability/log.js';
import { mirrorFromStripeEvent } from '../../clients/payments/mirror-stripe-event.js';
import { orderStatusFromProcessor } from '../../clients/payments/processor-statuses.js';
import { recordInvoice } from './record-invoice.js';
import { syncPaymentMethod } from './sync-payment-method.js';
import { afterCardSaved } from './after-card-saved.js';

export interface AppliedEvent {
  readonly received: true;
  /** What the event changed: invoice, subscription, payment_method, or ignored. */
  readonly applied: string;
}

/** Events after which the customer's saved card may have changed. */
const CARD_EVENTS = new Set(['checkout.session.completed', 'setup_intent.succeeded', 'payment_method.attached', 'payment_method.detached', 'customer.updated']);

/**
 * Mirrors one verified Stripe event into the billing tables so /v1/portal/billing shows what Stripe
 * charged and what is past due. Every write is keyed by a Stripe id and guarded by the event's
 * `created`, so duplicates, replays and out-of-order deliveries are harmless.
 */
export async function applyStripeEvent(services: Pick<Services, 'db' | 'payments' | 'jobs' | 'config'>, event: Stripe.Event, now: Date): Promise<AppliedEvent> {
  const { db, payments } = services;
  const record = mirrorFromStripeEvent(event);
  if (record?.kind === 'invoice') {
    const account = await accountFor(db, record.invoice.customer_id);
    if (!account) return { received: true, applied: 'ignored' };
    const order = record.invoice.subscription_id ? await findOrderBySubscription(db, record.invoice.subscription_id) : undefined;
    await recordInvoice(db, account, order?.id ?? null, record.invoice, record.event_created, now);
    return { received: true, applied: 'invoice' };
  }
  if (record?.kind === 'subscription') {
    const s = record.subscription;
    const status = orderStatusFromProcessor(s.status);
    // A subscription status this code does not know leaves the order's own unchanged (logged), rather
    // than show customers a state nobody verified.
    if (status === null) {
      log('warn', 'a Stripe subscription status this service does not know was left unapplied', { subscription: s.processor_id, status: s.status });
      return { received: true, applied: 'ignored' };
    }
    const applied = await applySubscriptionStatus(db, s.processor_id, status, record.event_created);
    // A cancelled order's mailboxes are suspended at the provider (jobs/suspend-mailboxes.ts).
    if (applied && status === 'cancelled') {
      const order = await findOrderBySubscription(db, s.processor_id);
      if (order) await services.jobs?.orderCancelled(order.id);
    }
    return { received: true, applied: applied ? 'subscription' : 'ignored' };
  }
  if (CARD_EVENTS.has(event.type)) {
    const object = event.data.object as { customer?: string | { id: string } | null; id?: string; object?: string };
    const customerId =
      object.object === 'customer' ? (object.id ?? null) : typeof object.customer === 'string' ? object.customer : (object.customer?.id ?? null);
    const account = await accountFor(db, customerId);
    if (!account || !customerId) return { received: true, applied: 'ignored' };
    if (event.type === 'payment_method.detached') {
      await syncPaymentMethod(db, account, await payments.getPaymentMethod(customerId));
    } else {
      // A card was saved (or made the default): open invoices are paid at once, as invoices.pay would.
      await afterCardSaved(services, customerId);
    }
    return { received: true, applied: 'payment_method' };
  }
  return { received: true, applied: 'ignored' };
}

async function accountFor(db: Kysely<Database>, customerId: string | null): Promise<number | null> {
  if (!customerId) return null;
  const row = await findAccountByCustomer(db, customerId);
  return row?.id ?? null;
}
