import { deletePaymentMethod, upsertPaymentMethod } from '../../db/payment-methods.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { PaymentMethodSummary } from '../../clients/payments/payment-processor.js';

/**
 * Copies the processor's card (brand, last four, expiry; never the number) to `payment_methods`,
 * which GET /v1/payment-method reads; no card at the processor removes the row.
 */
export async function syncPaymentMethod(db: Kysely<Database>, accountId: number, card: PaymentMethodSummary | null): Promise<void> {
  if (!card) {
    await deletePaymentMethod(db, accountId);
    return;
  }
  const shown = { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year, processor_ref: card.id };
  await upsertPaymentMethod(db, accountId, shown);
}
