import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // An account's credentials for publishing records at its DNS provider. `settings` holds what may be
  // shown again (server, port, key name, algorithm) as JSON text; `secret_sealed` the TSIG secret or
  // API token, sealed with AES-256-GCM under SECRETS_KEY (resolvers/secrets/encrypt-secret.ts).
  await db.schema
    .createTable('dns_connections')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('dns_connections_account').on('dns_connections').column('account_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dns_connections').ifExists().execute();
}
