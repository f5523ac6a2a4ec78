import type Stripe from 'stripe';
import { IDEMPOTENCY_METADATA_KEY, type MirroredInvoice } from './payment-processor.js';
import { invoiceStatusFromProcessor } from './processor-statuses.js';

/**
 * Turns a verified Stripe event into a plain record for the billing tables, so /v1/portal/billing shows
 * what Stripe charged and what is past due. Pure: no I/O.
 *
 * Replays and duplicates are harmless because every record carries the full current state of one
 * object, keyed by its Stripe id (`processor_id`): store it as an upsert on that id. Stripe does not
 * promise delivery order, so keep `event_created` and skip a record older than the one stored.
 */
export type MirrorRecord =
  | { readonly kind: 'invoice'; readonly event_id: string; readonly event_type: string; readonly event_created: number; readonly invoice: MirroredInvoice }
  | {
      readonly kind: 'subscription';
      readonly event_id: string;
      readonly event_type: string;
      readonly event_created: number;
      readonly subscription: MirroredSubscription;
    };

export interface MirroredSubscription {
  readonly processor_id: string;
  readonly customer_id: string | null;
  /** active, past_due, unpaid, canceled, incomplete, incomplete_expired, trialing, paused */
  readonly status: string;
  readonly quantity: number | null;
  readonly cancel_at_period_end: boolean;
  /** ISO 8601, or null. */
  readonly canceled_at: string | null;
  readonly current_period_end: string | null;
  /** Our Idempotency-Key, from the subscription's metadata: ties it to the order that made it. */
  readonly idempotency_key: string | null;
}

/** The record to store for this event, or null for an event the billing page does not use. */
export function mirrorFromStripeEvent(event: Stripe.Event): MirrorRecord | null {
  const base = { event_id: event.id, event_type: event.type, event_created: event.created };
  // Stripe.Event is a union on `type`: each case below knows its data.object.
  switch (event.type) {
    case 'invoice.created':
    case 'invoice.finalized':
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
    case 'invoice.payment_failed':
    case 'invoice.updated':
    case 'invoice.voided':
    case 'invoice.marked_uncollectible':
      return { kind: 'invoice', ...base, invoice: mirrorInvoice(event.data.object) };
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return { kind: 'subscription', ...base, subscription: mirrorSubscription(event.data.object) };
    default:
      return null;
  }
}

export function mirrorInvoice(invoice: Stripe.Invoice): MirroredInvoice {
  const subscription = invoice.parent?.subscription_details?.subscription ?? null;
  const status = invoiceStatusFromProcessor(invoice.status ?? 'draft');
  return {
    processor_id: invoice.id,
    customer_id: idOf(invoice.customer),
    subscription_id: idOf(subscription),
    number: invoice.number ?? null,
    amount_due: invoice.amount_due,
    amount_paid: invoice.amount_paid,
    currency: invoice.currency,
    status,
    created: isoFromUnix(invoice.created),
    due_date: isoFromUnix(invoice.due_date ?? null),
    paid_at: isoFromUnix(invoice.status_transitions?.paid_at ?? null),
    // Derived from the invoice itself rather than from the event type, so a late or replayed
    // invoice.payment_failed cannot mark an invoice past due after it was paid.
    payment_failed: status === 'open' && (invoice.attempt_count ?? 0) > 0,
    hosted_invoice_url: invoice.hosted_invoice_url ?? null,
  };
}

export function mirrorSubscription(subscription: Stripe.Subscription): MirroredSubscription {
  const item = subscription.items?.data?.[0];
  return {
    processor_id: subscription.id,
    customer_id: idOf(subscription.customer),
    status: subscription.status,
    quantity: item?.quantity ?? null,
    cancel_at_period_end: subscription.cancel_at_period_end ?? false,
    canceled_at: isoFromUnix(subscription.canceled_at ?? null),
    // Since API version 2025-03-31 the billing period lives on the subscription items.
    current_period_end: isoFromUnix(item?.current_period_end ?? null),
    idempotency_key: subscription.metadata?.[IDEMPOTENCY_METADATA_KEY] ?? null,
  };
}

function idOf(value: string | { readonly id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}

function isoFromUnix(seconds: number | null): string | null {
  return seconds === null || seconds === undefined ? null : new Date(seconds * 1000).toISOString();
}
