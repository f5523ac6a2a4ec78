import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // The ACME account per directory: its key sealed with SECRETS_KEY, its URL once registered.
  await db.schema
    .createTable('acme_accounts')
    .addColumn('directory_url', 'text', (c) => c.primaryKey())
    .addColumn('account_key_sealed', 'text', (c) => c.notNull())
    .addColumn('account_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One certificate per forwarded name, served by SNI on FORWARD_TLS_PORT. The columns of the
  // certificate are null until the first issuance; a failed attempt is kept with when to try again.
  await db.schema
    .createTable('forwarding_certificates')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('certificate_pem', 'text')
    .addColumn('private_key_sealed', 'text')
    .addColumn('not_before', 'timestamptz')
    .addColumn('not_after', 'timestamptz')
    .addColumn('issued_at', 'timestamptz')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('retry_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('forwarding_certificates_not_after').on('forwarding_certificates').column('not_after').execute();
  // HTTP-01 challenges in flight: any instance's forwarding listener answers them, whichever
  // instance's job asked for the certificate.
  await db.schema
    .createTable('acme_challenges')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('key_authorization', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('acme_challenges').execute();
  await db.schema.dropTable('forwarding_certificates').execute();
  await db.schema.dropTable('acme_accounts').execute();
}
