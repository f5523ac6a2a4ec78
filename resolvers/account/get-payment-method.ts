import { findPaymentMethod } from '../../db/payment-methods.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';

export interface PaymentMethodView {
  readonly onFile: boolean;
  readonly brand: string | null;
  readonly last4: string | null;
  readonly expMonth: number | null;
  readonly expYear: number | null;
}

/** Whether a card is on file, as brand and last four; card numbers never pass through the API. */
export async function getPaymentMethod(ctx: Context): Promise<PaymentMethodView> {
  const accountId = await requireAccountId(ctx);
  const card = await findPaymentMethod(ctx.services.db, accountId);
  return card
    ? { onFile: true, brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year }
    : { onFile: false, brand: null, last4: null, expMonth: null, expYear: null };
}
