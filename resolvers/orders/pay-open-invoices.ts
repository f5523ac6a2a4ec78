import { claimInvoicePayment, listOpenInvoicesToPay, markInvoicePaid, releaseInvoicePayment } from '../../db/invoices.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DomainError } from '../domain-error.js';
import type { PaymentProcessor } from '../../clients/payments/payment-processor.js';
import { creditReferrer } from '../referrals/credit-referrer.js';

/** What one attempt did to one invoice. */
export interface InvoicePaymentOutcome {
  /** Our invoice row's id (not shown on the doors). */
  readonly invoiceId: number;
  readonly number: string;
  readonly amount: number;
  readonly currency: string;
  /** paid, declined, no_card, unavailable, in_progress, not_ours. */
  readonly outcome: 'paid' | 'declined' | 'no_card' | 'unavailable' | 'in_progress' | 'not_ours';
  /** For people: what happened and what to do. */
  readonly message: string;
}

/** How long one attempt holds an invoice: past the processor's 20 s cap, short enough to retry soon. */
const CLAIM_MS = 60_000;

/**
 * Pays the account's open invoices at once with the card on file (as Stripe's `invoices.pay` does),
 * oldest first. Called when a card is saved (both processors) and by "pay now". Each invoice is
 * claimed in the database before the processor is asked (a conditional update), so a card save and a
 * click on "pay now" at the same moment charge it once; the processor call also carries an
 * idempotency key derived from the invoice. `onlyNumber` pays that invoice alone.
 */
export async function payOpenInvoices(
  db: Kysely<Database>,
  payments: PaymentProcessor,
  accountId: number,
  customerId: string,
  onlyNumber: string | null = null,
): Promise<readonly InvoicePaymentOutcome[]> {
  const open = await listOpenInvoicesToPay(db, accountId, onlyNumber);
  const outcomes: InvoicePaymentOutcome[] = [];
  for (const invoice of open) {
    const amount = invoice.amount_due - invoice.amount_paid;
    const base = { invoiceId: invoice.id, number: invoice.number, amount, currency: invoice.currency };
    if (!payments.ownsInvoice(invoice.processor_invoice_id)) {
      outcomes.push({ ...base, outcome: 'not_ours', message: `Invoice ${invoice.number} cannot be paid online; write to us and we will settle it.` });
      continue;
    }
    const claimed = await claimInvoicePayment(db, invoice.id, CLAIM_MS);
    if (!claimed) {
      outcomes.push({ ...base, outcome: 'in_progress', message: `Invoice ${invoice.number} is being paid right now; look again in a minute.` });
      continue;
    }
    try {
      const paid = await payments.payInvoice({
        customerId,
        invoiceRef: invoice.processor_invoice_id,
        amount,
        currency: invoice.currency,
        idempotencyKey: `pay-invoice-${accountId}-${invoice.id}-${amount}`,
      });
      await markInvoicePaid(db, invoice.id, {
        amount_paid: invoice.amount_paid + paid.amountPaid,
        paid_at: new Date(paid.paidAt),
        hosted_invoice_url: paid.hostedInvoiceUrl,
      });
      await creditReferrer(db, accountId);
      outcomes.push({ ...base, outcome: 'paid', message: `Invoice ${invoice.number} is paid.` });
    } catch (error) {
      const outcome = outcomeOf(error);
      const message =
        outcome === 'declined'
          ? `The card on file was declined for invoice ${invoice.number}; save another card, then pay again.`
          : outcome === 'no_card'
            ? `No card is on file to pay invoice ${invoice.number}; save one first.`
            : `The payment processor could not be reached for invoice ${invoice.number}; nothing was charged, try again in a minute.`;
      await releaseInvoicePayment(db, invoice.id, outcome === 'unavailable' ? undefined : message);
      if (outcome === 'other') throw error;
      outcomes.push({ ...base, outcome, message });
    }
  }
  return outcomes;
}

function outcomeOf(error: unknown): 'declined' | 'no_card' | 'unavailable' | 'other' {
  if (!(error instanceof DomainError)) return 'other';
  if (error.code === 'card_declined') return 'declined';
  if (error.code === 'no_payment_method') return 'no_card';
  if (error.code === 'payment_processor_unavailable') return 'unavailable';
  return 'other';
}
