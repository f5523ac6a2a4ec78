import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // Whether a report is known to come from its reporting organisation (DKIM-signed by it, or uploaded
  // by the domain's own account): only those count in analytics, sources and alerts (docs/reports.md).
  // The rows carry the flag too, so the figures filter without a join.
  for (const table of ['reports', 'dmarc_report_rows', 'tls_report_policies'])
    await db.schema
      .alterTable(table)
      .addColumn('authenticated', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();
  // Reports stored before: an upload came with the account's key; one by SMTP was never verified.
  await sql`update reports set authenticated = (received_via = 'upload')`.execute(db);
  await sql`update dmarc_report_rows set authenticated = true where report_id in (select id from reports where authenticated)`.execute(db);
  await sql`update tls_report_policies set authenticated = true where report_id in (select id from reports where authenticated)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['tls_report_policies', 'dmarc_report_rows', 'reports']) await db.schema.alterTable(table).dropColumn('authenticated').execute();
}
