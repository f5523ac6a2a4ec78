import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The card on file (brand and last four only), if any. */
export function findPaymentMethod(db: Kysely<Database>, accountId: number) {
  return db.selectFrom('payment_methods').select(['brand', 'last4', 'exp_month', 'exp_year']).where('account_id', '=', accountId).executeTakeFirst();
}

export async function deletePaymentMethod(db: Kysely<Database>, accountId: number): Promise<void> {
  await db.deleteFrom('payment_methods').where('account_id', '=', accountId).execute();
}

/** Stores the card shown for the account (replacing the one there). */
export async function upsertPaymentMethod(
  db: Kysely<Database>,
  accountId: number,
  shown: { brand: string; last4: string; exp_month: number; exp_year: number; processor_ref: string | null },
): Promise<void> {
  await db
    .insertInto('payment_methods')
    .values({ account_id: accountId, ...shown })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(shown))
    .execute();
}
