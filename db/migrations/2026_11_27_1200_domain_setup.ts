import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // One DKIM key pair per domain, made by the provisioning adapter when the build starts. The
  // private key is sealed (AES-256-GCM under SECRETS_KEY) and never leaves the service.
  await db.schema
    .createTable('domain_dkim_keys')
    .addColumn('domain_id', 'integer', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
    .addColumn('selector', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('domains')
    // When the provider said the mailboxes exist; live waits for it.
    .addColumn('mailboxes_created_at', 'timestamptz')
    // The setup's last check, the next one due, and how many checks found it not ready (the backoff).
    .addColumn('setup_checked_at', 'timestamptz')
    .addColumn('setup_next_check_at', 'timestamptz')
    .addColumn('setup_checks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('domains_setup_next_check_at').on('domains').column('setup_next_check_at').execute();
  // Until now a sandbox build went live without its records being checked. Such a domain has not
  // earned `live`: it waits for its DNS, and the next sweep checks it (and moves it back to live
  // at once if its records are there). Its mailboxes were made by that build.
  await db
    .updateTable('domains')
    .set({ build_state: 'waiting_for_dns', setup_next_check_at: sql`now()`, mailboxes_created_at: sql`coalesce(built_at, now())` })
    .where('build_state', '=', 'live')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.updateTable('domains').set({ build_state: 'live' }).where('build_state', '=', 'waiting_for_dns').execute();
  await db.schema.dropIndex('domains_setup_next_check_at').ifExists().execute();
  await db.schema
    .alterTable('domains')
    .dropColumn('mailboxes_created_at')
    .dropColumn('setup_checked_at')
    .dropColumn('setup_next_check_at')
    .dropColumn('setup_checks')
    .execute();
  await db.schema.dropTable('domain_dkim_keys').ifExists().execute();
}
