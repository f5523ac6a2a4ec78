import type { Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // Who brought an account: recorded when a sign-up carrying a referral code is confirmed; the pending
  // sign-up holds the referrer until then.
  await db.schema
    .alterTable('accounts')
    .addColumn('referred_by_account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('user_tokens')
    .addColumn('referred_by_account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .execute();
  // An earning names the referred account and the invoice that earned it; one earning per referred
  // account (its first paid invoice), so paying twice or a replayed webhook credits once. The demo's
  // earnings name no account (null): the unique index lets them be.
  await db.schema
    .alterTable('referral_earnings')
    .addColumn('referred_account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('invoice_id', 'integer', (c) => c.references('invoices.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('referral_earnings_referred_account').unique().on('referral_earnings').column('referred_account_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('referral_earnings_referred_account').execute();
  await db.schema.alterTable('referral_earnings').dropColumn('invoice_id').dropColumn('referred_account_id').execute();
  await db.schema.alterTable('user_tokens').dropColumn('referred_by_account_id').execute();
  await db.schema.alterTable('accounts').dropColumn('referred_by_account_id').execute();
}
