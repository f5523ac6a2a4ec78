import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // Codes belong to one account (the demo seed gives each new account its own set), optionally to one
  // plan; `duration` follows Stripe's coupon vocabulary: once, repeating (N months), forever.
  await db.schema
    .createTable('promotion_codes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'integer', (c) => c.references('plans.id'))
    .addColumn('percent_off', 'integer')
    .addColumn('amount_off', 'integer')
    .addColumn('currency', 'text')
    .addColumn('duration', 'text', (c) => c.notNull())
    .addColumn('duration_in_months', 'integer')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('max_redemptions', 'integer')
    .addColumn('times_redeemed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processor_ref', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('promotion_codes_account_code', ['account_id', 'code'])
    .execute();

  // The price each account was last shown for one order (by a hash of the order), so placing after
  // a price change is refused until the caller previews again.
  await db.schema
    .createTable('order_previews')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('order_hash', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id'))
    .addColumn('unit_amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('mailboxes_per_unit', 'integer', (c) => c.notNull())
    .addColumn('previewed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('order_previews_pk', ['account_id', 'order_hash'])
    .execute();

  await db.schema.alterTable('orders').addColumn('first_invoice', 'integer').execute();
  await db.schema
    .alterTable('orders')
    .addColumn('promotion_code_id', 'integer', (c) => c.references('promotion_codes.id'))
    .execute();
  // Stripe does not promise delivery order: the `created` of the newest event applied, to skip older ones.
  await db.schema.alterTable('orders').addColumn('processor_event_created', 'bigint').execute();
  await db.schema.alterTable('invoices').addColumn('processor_event_created', 'bigint').execute();
  await db.schema.alterTable('invoices').addColumn('processor_subscription_id', 'text').execute();

  await db.schema
    .createTable('sandbox_setup_tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('success_url', 'text', (c) => c.notNull())
    .addColumn('cancel_url', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('sandbox_cards')
    .addColumn('customer_id', 'text', (c) => c.primaryKey())
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('saved_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sandbox_subscriptions')
    .addColumn('subscription_id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('price_ref', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('invoice_id', 'text', (c) => c.notNull())
    .addColumn('amount_paid', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    // One charge per (customer, Idempotency-Key), however many requests race.
    .addUniqueConstraint('sandbox_subscriptions_customer_key', ['customer_id', 'idempotency_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['sandbox_subscriptions', 'sandbox_cards', 'sandbox_setup_tokens']) await db.schema.dropTable(table).ifExists().execute();
  await db.schema.alterTable('invoices').dropColumn('processor_subscription_id').execute();
  await db.schema.alterTable('invoices').dropColumn('processor_event_created').execute();
  await db.schema.alterTable('orders').dropColumn('processor_event_created').execute();
  await db.schema.alterTable('orders').dropColumn('promotion_code_id').execute();
  await db.schema.alterTable('orders').dropColumn('first_invoice').execute();
  await db.schema.dropTable('order_previews').ifExists().execute();
  await db.schema.dropTable('promotion_codes').ifExists().execute();
}
