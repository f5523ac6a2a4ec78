import type { Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // The processor's page for the invoice (Stripe's hosted_invoice_url), shown on billing.
  await db.schema.alterTable('invoices').addColumn('hosted_invoice_url', 'text').execute();
  // A payment attempt claims the invoice until this time, so "pay now" and a card save at the same
  // moment charge it once; a crashed attempt's claim lapses by itself.
  await db.schema.alterTable('invoices').addColumn('payment_claimed_until', 'timestamptz').execute();
  // The last failed attempt's sentence, shown beside the invoice until it is paid.
  await db.schema.alterTable('invoices').addColumn('last_payment_error', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('invoices').dropColumn('last_payment_error').execute();
  await db.schema.alterTable('invoices').dropColumn('payment_claimed_until').execute();
  await db.schema.alterTable('invoices').dropColumn('hosted_invoice_url').execute();
}
