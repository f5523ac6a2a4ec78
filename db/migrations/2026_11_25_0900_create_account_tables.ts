import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('processor_customer_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('plans')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('unit_amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('mailboxes_per_unit', 'integer', (c) => c.notNull())
    .addColumn('orderable', 'boolean', (c) => c.notNull())
    .addColumn('why_not', 'text')
    .addColumn('processor_price_id', 'text')
    .addColumn('price_updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('plans_account_sku', ['account_id', 'sku'])
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id'))
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('subscription_id', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('sequencer', 'text')
    .addColumn('monitor_reconnection', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('monitor_deliverability', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('processor_subscription_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('orders_account').on('orders').column('account_id').execute();

  await db.schema
    .createTable('domains')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('workspace_id', 'integer', (c) => c.references('workspaces.id').onDelete('set null'))
    // Unique across all accounts: a domain can be on one order only (issue 5).
    .addColumn('domain', 'text', (c) => c.notNull().unique())
    .addColumn('build_state', 'text', (c) => c.notNull())
    .addColumn('forward_to', 'text')
    .addColumn('watched_since', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('domains_account').on('domains').column('account_id').execute();
  await db.schema.createIndex('domains_order').on('domains').column('order_id').execute();

  await db.schema
    .createTable('mailboxes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id'))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('local_part', 'text', (c) => c.notNull())
    .addUniqueConstraint('mailboxes_domain_local_part', ['domain_id', 'local_part'])
    .execute();

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('forward_to', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('request_replies')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('request_id', 'integer', (c) => c.notNull().references('change_requests.id'))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_due', 'integer', (c) => c.notNull())
    .addColumn('amount_paid', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('paid_at', 'timestamptz')
    .addColumn('processor_invoice_id', 'text', (c) => c.unique())
    .execute();
  await db.schema.createIndex('invoices_account').on('invoices').column('account_id').execute();

  await db.schema
    .createTable('payment_methods')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    .addColumn('processor_ref', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('referrals')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('payout_destination', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('referral_earnings')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('referred_account', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('earned_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('domain_analytics')
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('sent', 'integer', (c) => c.notNull())
    .addColumn('delivered', 'integer', (c) => c.notNull())
    .addColumn('bounced', 'integer', (c) => c.notNull())
    .addColumn('replied', 'integer', (c) => c.notNull())
    .addColumn('inbox_placed', 'integer', (c) => c.notNull())
    .addColumn('spam_placed', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('domain_analytics_pk', ['domain_id', 'day'])
    .execute();

  await db.schema
    .createTable('idempotency_records')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    .addColumn('response', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addPrimaryKeyConstraint('idempotency_records_pk', ['account_id', 'key'])
    .execute();

  // The shape rate-limiter-flexible's RateLimiterPostgres expects (key, points, expire in epoch ms);
  // created here so the limiter never issues DDL at request time.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'rate_limits',
    'idempotency_records',
    'domain_analytics',
    'referral_earnings',
    'referrals',
    'payment_methods',
    'invoices',
    'request_replies',
    'change_requests',
    'mailboxes',
    'domains',
    'orders',
    'workspaces',
    'plans',
    'api_keys',
    'accounts',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
