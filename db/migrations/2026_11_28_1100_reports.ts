import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // One received DMARC aggregate or TLS-RPT report (docs/reports.md). The same report sent twice
  // (same kind, reporting organisation and report id) is stored once: the unique index refuses the second.
  await db.schema
    .createTable('reports')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('org_name', 'text', (c) => c.notNull())
    .addColumn('org_email', 'text')
    .addColumn('report_id', 'text', (c) => c.notNull())
    .addColumn('schema_version', 'text')
    .addColumn('begin_at', 'timestamptz', (c) => c.notNull())
    .addColumn('end_at', 'timestamptz', (c) => c.notNull())
    .addColumn('policy', 'text')
    .addColumn('messages', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('messages_passed', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('records', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped_records', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('received_via', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('reports_kind_org_report').on('reports').columns(['kind', 'org_name', 'report_id']).unique().execute();
  await db.schema.createIndex('reports_account_id').on('reports').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('reports_end_at').on('reports').column('end_at').execute();

  // One <record> of a DMARC report: a source address's messages on the report's first day.
  await db.schema
    .createTable('dmarc_report_rows')
    .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('domain_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('source_ip', 'text', (c) => c.notNull())
    .addColumn('messages', 'integer', (c) => c.notNull())
    .addColumn('disposition', 'text', (c) => c.notNull())
    .addColumn('dkim_aligned', 'boolean', (c) => c.notNull())
    .addColumn('spf_aligned', 'boolean', (c) => c.notNull())
    .addColumn('dmarc_pass', 'boolean', (c) => c.notNull())
    .addColumn('header_from', 'text')
    .addColumn('envelope_from', 'text')
    .addColumn('dkim_result', 'text')
    .addColumn('dkim_domain', 'text')
    .addColumn('dkim_selector', 'text')
    .addColumn('spf_result', 'text')
    .addColumn('spf_domain', 'text')
    .addColumn('reasons', 'text')
    .execute();
  await db.schema.createIndex('dmarc_report_rows_domain_day').on('dmarc_report_rows').columns(['domain_id', 'day']).execute();
  await db.schema.createIndex('dmarc_report_rows_report').on('dmarc_report_rows').column('report_id').execute();

  // One policy of a TLS-RPT report: sessions that succeeded and failed, failures by result type as JSON text.
  await db.schema
    .createTable('tls_report_policies')
    .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('domain_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('policy_type', 'text', (c) => c.notNull())
    .addColumn('policy_domain', 'text', (c) => c.notNull())
    .addColumn('mx_host', 'text')
    .addColumn('successful_sessions', 'bigint', (c) => c.notNull())
    .addColumn('failed_sessions', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tls_report_policies_domain_day').on('tls_report_policies').columns(['domain_id', 'day']).execute();
  await db.schema.createIndex('tls_report_policies_report').on('tls_report_policies').column('report_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tls_report_policies').ifExists().execute();
  await db.schema.dropTable('dmarc_report_rows').ifExists().execute();
  await db.schema.dropTable('reports').ifExists().execute();
}
