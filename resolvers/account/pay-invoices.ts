import { findAnyOpenInvoice, findInvoiceStatus } from '../../db/invoices.js';
import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { ensureProcessorCustomer } from '../orders/processor-customer.js';
import { payOpenInvoices, type InvoicePaymentOutcome } from '../orders/pay-open-invoices.js';
import { recordInvoicePaid } from '../orders/invoice-paid-event.js';
import { ProcessorUnavailableError } from '../../clients/payments/payment-errors.js';

export interface PayInvoicesInput {
  /** One invoice's number; absent: every open invoice, oldest first. */
  readonly invoiceNumber?: string | null;
}

export interface PaidInvoices {
  /** How many invoices this call paid. */
  readonly paidCount: number;
  readonly paidAmount: number;
  readonly currency: string;
  readonly results: readonly InvoicePaymentOutcome[];
  readonly detail: string;
}

/**
 * "Pay now": charges the card on file for the open invoices (or the one named) at once. When it paid
 * nothing, the answer is the refusal itself (402 declined, 409 no card, 502 processor unreachable),
 * so every door shows the same status a placement would.
 */
export async function payInvoices(input: PayInvoicesInput | null | undefined, ctx: Context): Promise<PaidInvoices> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const number = input?.invoiceNumber?.trim() || null;
  if (number !== null) {
    const invoice = await findInvoiceStatus(db, accountId, number);
    if (!invoice) throw new DomainError('invoice_not_found', `You have no invoice numbered "${number.slice(0, 60)}"; the billing page lists your invoices.`);
    if (invoice.status !== 'open') throw new DomainError('invoice_not_open', `Invoice ${number} is ${invoice.status}: there is nothing to pay on it.`);
  } else {
    const open = await findAnyOpenInvoice(db, accountId);
    if (!open) throw new DomainError('nothing_to_pay', 'Nothing is open: every invoice is paid.');
  }
  const customerId = await ensureProcessorCustomer(ctx, accountId);
  const results = await payOpenInvoices(db, ctx.services.payments, accountId, customerId, number);
  const paid = results.filter((r) => r.outcome === 'paid');
  for (const invoice of paid) await recordInvoicePaid(ctx.services, invoice.invoiceId);
  if (paid.length === 0) {
    // Our own sentences: these refusals are about invoices, not about placing an order.
    if (results.some((r) => r.outcome === 'no_card'))
      throw new DomainError(
        'no_payment_method',
        'No card is on file, so nothing was charged. Add a card on the billing page (or through a card setup link), then pay again.',
      );
    if (results.some((r) => r.outcome === 'declined'))
      throw new DomainError('card_declined', 'The card on file was declined, so nothing was charged. Replace the card on the billing page, then pay again.', {
        decline_code: 'generic_decline',
      });
    if (results.some((r) => r.outcome === 'unavailable')) throw new ProcessorUnavailableError(true, 'paying an open invoice');
    if (results.some((r) => r.outcome === 'in_progress'))
      throw new DomainError('payment_in_progress', 'These invoices are being paid right now; look at billing again in a minute.');
    throw new DomainError('not_payable_online', results[0]?.message ?? 'These invoices cannot be paid online; write to us and we will settle them.');
  }
  const paidAmount = paid.reduce((sum, r) => sum + r.amount, 0);
  const currency = paid[0]!.currency;
  const left = results.length - paid.length;
  return {
    paidCount: paid.length,
    paidAmount,
    currency,
    results,
    detail: `Paid ${paid.length} invoice${paid.length === 1 ? '' : 's'} (${(paidAmount / 100).toFixed(2)} ${currency.toUpperCase()}).${left > 0 ? ` ${left} could not be paid: see each one's message.` : ''}`,
  };
}
