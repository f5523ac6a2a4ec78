import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // One random token per account, made the first time it is asked for: the value the account
  // publishes in TXT at _inbox-verification.<domain> to prove the domain is its own.
  await db.schema
    .createTable('domain_verification_tokens')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A domain once seen carrying the account's token stays verified for that account, so removing the
  // record afterwards (or a DNS outage) never blocks an order the owner already proved.
  await db.schema
    .createTable('verified_domains')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('verified_domains_pkey', ['account_id', 'domain'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('verified_domains').ifExists().execute();
  await db.schema.dropTable('domain_verification_tokens').ifExists().execute();
}
