import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The card on file (brand and last four only), if any. */
export function findPaymentMethod(db: Kysely<Database>, accountId: number) {
  return db.selectFrom('payment_methods').select(['brand', 'last4', 'exp_month', 'exp_year']).where('account_id', '=', accountId).executeTakeFirst();
}
