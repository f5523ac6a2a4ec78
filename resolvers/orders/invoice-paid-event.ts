import { listOrderDomainNames } from '../../db/domains.js';
import { findInvoiceForPaidEvent } from '../../db/invoices.js';
import type { Services } from '../context.js';
import { recordEvent } from '../events/record-event.js';

/**
 * The receipt: an `invoice.paid` event for an invoice we just paid (a saved card or "pay now"), which
 * the jobs turn into an e-mail to the account's people and a webhook delivery. It carries the amount,
 * the order's domains and a link (the processor's hosted invoice, else the portal's billing page).
 * Its id is made from the invoice's, so a repeated call records nothing new.
 */
export async function recordInvoicePaid(services: Pick<Services, 'db' | 'jobs' | 'config'>, invoiceId: number): Promise<void> {
  const db = services.db;
  const invoice = await findInvoiceForPaidEvent(db, invoiceId);
  if (!invoice) return;
  const domains = invoice.order_id ? await listOrderDomainNames(db, invoice.order_id) : [];
  const link = invoice.hosted_invoice_url ?? `${services.config.apiUrl}/portal/billing`;
  const amount = `${(invoice.amount_paid / 100).toFixed(2)} ${invoice.currency.toUpperCase()}`;
  const eventId = await recordEvent(
    db,
    invoice.account_id,
    'invoice.paid',
    {
      invoice_id: invoice.id,
      number: invoice.number,
      order_id: invoice.order_id,
      amount_paid: invoice.amount_paid,
      currency: invoice.currency,
      domains,
      paid_at: invoice.paid_at ? new Date(invoice.paid_at).toISOString() : null,
      url: link,
      message: [
        `Invoice ${invoice.number} is paid: ${amount} charged to the card on file.`,
        domains.length > 0 ? `Domains (${domains.length}): ${domains.join(', ')}.` : '',
        `Receipt: ${link}`,
      ]
        .filter(Boolean)
        .join('\n'),
    },
    `evt_invoice_paid_${invoice.id}`,
  );
  if (eventId) await services.jobs?.eventRecorded(eventId);
}
