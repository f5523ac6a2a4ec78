import type { Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // The PTR name of a report's source address, as our resolver last answered it (docs/reports.md,
  // "Reading"): null when the address has no PTR. Shared by every account: a PTR is public.
  await db.schema
    .createTable('source_ptr_names')
    .addColumn('source_ip', 'text', (c) => c.primaryKey())
    .addColumn('ptr', 'text')
    .addColumn('resolved_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // The account's own DMARC pass-rate threshold for the dmarc.failures alert; null: the default.
  await db.schema.alterTable('accounts').addColumn('dmarc_alert_pass_rate', 'real').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('dmarc_alert_pass_rate').execute();
  await db.schema.dropTable('source_ptr_names').execute();
}
