import type { Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // A report is a duplicate of one stored for the same account and domain only: keyed on the
  // reporter's (organisation, report id) alone, one account's report (or anyone's by SMTP, with a
  // guessed id) made another's a "duplicate" and lost it. An unauthenticated copy never stands in
  // for the authenticated one either (docs/reports.md).
  await db.schema.dropIndex('reports_kind_org_report').execute();
  await db.schema
    .createIndex('reports_account_domain_report')
    .on('reports')
    .columns(['account_id', 'domain', 'kind', 'org_name', 'report_id', 'authenticated'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('reports_account_domain_report').execute();
  await db.schema.createIndex('reports_kind_org_report').on('reports').columns(['kind', 'org_name', 'report_id']).unique().execute();
}
