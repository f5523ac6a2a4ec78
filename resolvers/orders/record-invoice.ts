import { findInvoiceByProcessorId, insertInvoiceOnce, updateInvoice } from '../../db/invoices.js';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { MirroredInvoice } from '../../clients/payments/payment-processor.js';
import { creditReferrer } from '../referrals/credit-referrer.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Stores a processor invoice for the billing page, keyed by the processor's invoice id, so a webhook
 * delivered twice, replayed, or arriving before the order is recorded changes nothing it should not.
 * `eventCreated` is the Stripe event's `created`: an older event than the one stored is skipped
 * (Stripe does not promise delivery order). The order commit passes null and only ties the invoice
 * to its order when a webhook stored it first.
 */
export async function recordInvoice(
  db: Db,
  accountId: number,
  orderId: number | null,
  invoice: MirroredInvoice,
  eventCreated: number | null,
  now: Date,
): Promise<void> {
  const issued = invoice.created ? new Date(invoice.created) : now;
  // Charged automatically, an open invoice is due when issued: once a payment failed it is past due.
  const due = invoice.due_date ? new Date(invoice.due_date) : issued;
  const fields = {
    number: invoice.number ?? invoice.processor_id,
    status: invoice.status,
    amount_due: invoice.amount_due,
    amount_paid: invoice.amount_paid,
    currency: invoice.currency,
    issued_at: issued,
    due_at: due,
    paid_at: invoice.paid_at ? new Date(invoice.paid_at) : null,
    processor_subscription_id: invoice.subscription_id,
    ...(invoice.hosted_invoice_url !== undefined && { hosted_invoice_url: invoice.hosted_invoice_url }),
  };
  const inserted = await insertInvoiceOnce(db, {
    account_id: accountId,
    order_id: orderId,
    processor_invoice_id: invoice.processor_id,
    processor_event_created: eventCreated,
    ...fields,
  });
  if (inserted) {
    if (invoice.status === 'paid') await creditReferrer(db, accountId, now);
    return;
  }
  const stored = await findInvoiceByProcessorId(db, invoice.processor_id);
  const storedAt = stored.processor_event_created === null ? null : Number(stored.processor_event_created);
  const newer = eventCreated !== null && (storedAt === null || eventCreated >= storedAt);
  if (newer) {
    await updateInvoice(db, stored.id, { ...fields, processor_event_created: eventCreated, order_id: stored.order_id ?? orderId });
    // An invoice paid later (a retried charge, paid at the processor): the referrer's credit, once.
    if (invoice.status === 'paid') await creditReferrer(db, accountId, now);
  } else if (orderId !== null && stored.order_id === null) {
    await updateInvoice(db, stored.id, { order_id: orderId });
  }
}
