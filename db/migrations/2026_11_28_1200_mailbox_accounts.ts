import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // Each mailbox's state at the provider (pending until the build creates it, active, suspended),
  // its password sealed with SECRETS_KEY (null until the build or a reset makes one), and when its
  // status last changed.
  await db.schema
    .alterTable('mailboxes')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('password_sealed', 'text')
    .addColumn('status_changed_at', 'timestamptz')
    .execute();
  // Only the statuses the doors document (and the GraphQL enum can serialise), as for the other status columns.
  await db.schema.alterTable('mailboxes').addCheckConstraint('mailboxes_status_known', sql`status in ('pending', 'active', 'suspended')`).execute();
  // Mailboxes of domains the provider already built are active (the sandbox made them at the build).
  await sql`update mailboxes set status = 'active', status_changed_at = domains.mailboxes_created_at
    from domains where domains.id = mailboxes.domain_id and domains.mailboxes_created_at is not null`.execute(db);
  // The reconnection monitor's last look at a domain's mailboxes.
  await db.schema.alterTable('domains').addColumn('mailboxes_checked_at', 'timestamptz').execute();
  // One row per time a mailbox stopped being active: what it became, and when it was active again.
  await db.schema
    .createTable('mailbox_disconnections')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('mailbox_id', 'integer', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disconnected_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reconnected_at', 'timestamptz')
    .addCheckConstraint('mailbox_disconnections_status_known', sql`status in ('pending', 'suspended')`)
    .execute();
  await db.schema.createIndex('mailbox_disconnections_mailbox_id').on('mailbox_disconnections').column('mailbox_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mailbox_disconnections').ifExists().execute();
  await db.schema.alterTable('domains').dropColumn('mailboxes_checked_at').execute();
  await db.schema.alterTable('mailboxes').dropColumn('status').dropColumn('password_sealed').dropColumn('status_changed_at').execute();
}
