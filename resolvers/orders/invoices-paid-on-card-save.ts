import { findAccountByCustomer } from '../../db/accounts.js';
import { listOpenInvoicesToPay } from '../../db/invoices.js';
import type { Services } from '../context.js';

/** One invoice that saving a card pays at once, and what it charges. */
export interface InvoiceDueOnCardSave {
  readonly number: string;
  /** What is still owed, minor units. */
  readonly amount: number;
  readonly currency: string;
}

/**
 * What saving a card for this processor customer will charge at once: every open invoice the
 * processor holds, oldest first, the same list afterCardSaved pays (payOpenInvoices). The card page
 * names them so that "nothing is charged now" is said only when it is true.
 */
export async function listInvoicesDueOnCardSave(services: Pick<Services, 'db' | 'payments'>, customerId: string): Promise<readonly InvoiceDueOnCardSave[]> {
  const account = await findAccountByCustomer(services.db, customerId);
  if (!account) return [];
  const open = await listOpenInvoicesToPay(services.db, account.id, null);
  return open
    .filter((invoice) => services.payments.ownsInvoice(invoice.processor_invoice_id) && invoice.amount_due > invoice.amount_paid)
    .map((invoice) => ({ number: invoice.number, amount: invoice.amount_due - invoice.amount_paid, currency: invoice.currency }));
}
