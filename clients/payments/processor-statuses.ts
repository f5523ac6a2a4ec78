import { INVOICE_STATUSES, ORDER_STATUSES, type InvoiceStatus, type OrderStatus } from '../../db/status-values.js';

/**
 * An order's status from its processor subscription's, in the documented spelling: Stripe says
 * `canceled` and `incomplete_expired` (an order whose first payment never completed), both of which
 * are `cancelled` here. A status Stripe adds later that this code does not know answers null: the
 * caller keeps the status it has rather than show one nobody verified.
 */
export function orderStatusFromProcessor(status: string): OrderStatus | null {
  if (status === 'canceled' || status === 'incomplete_expired') return 'cancelled';
  return ORDER_STATUSES.find((known) => known === status) ?? null;
}

/**
 * Stripe's invoice statuses are ours unchanged. One this code does not know is shown `open`: still
 * owed, never `paid` on a guess.
 */
export function invoiceStatusFromProcessor(status: string): InvoiceStatus {
  return INVOICE_STATUSES.find((known) => known === status) ?? 'open';
}
