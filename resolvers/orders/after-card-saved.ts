import { findAccountByCustomer } from '../../db/accounts.js';
import type { Services } from '../context.js';
import { recordInvoicePaid } from './invoice-paid-event.js';
import { log } from '../../observability/log.js';
import { payOpenInvoices, type InvoicePaymentOutcome } from './pay-open-invoices.js';
import { syncPaymentMethod } from './sync-payment-method.js';

/**
 * A card was saved at the processor (the sandbox page, or Stripe's checkout/setup webhooks): copy it
 * to `payment_methods`, then pay every open invoice with it at once. A failure to pay is recorded on
 * the invoice (billing shows it) and never undoes the saved card.
 */
export async function afterCardSaved(
  services: Pick<Services, 'db' | 'payments' | 'jobs' | 'config'>,
  customerId: string,
): Promise<readonly InvoicePaymentOutcome[]> {
  const { db, payments } = services;
  const account = await findAccountByCustomer(db, customerId);
  if (!account) return [];
  const card = await payments.getPaymentMethod(customerId);
  await syncPaymentMethod(db, account.id, card);
  if (!card) return [];
  try {
    const outcomes = await payOpenInvoices(db, payments, account.id, customerId);
    for (const paid of outcomes.filter((o) => o.outcome === 'paid')) await recordInvoicePaid(services, paid.invoiceId);
    if (outcomes.length > 0)
      log('info', 'open invoices tried after a card was saved', {
        account_id: account.id,
        outcomes: outcomes.map((o) => `${o.number}:${o.outcome}`).join(','),
      });
    return outcomes;
  } catch (error) {
    log('error', 'paying open invoices after a card was saved failed', {
      account_id: account.id,
      reason: error instanceof Error ? error.message : String(error),
    });
    return [];
  }
}
