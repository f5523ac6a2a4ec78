import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // The journal of publishes: one row per apply (or revert) that wrote records at a DNS provider,
  // with each RRset it touched as read before the write and after it (`rrsets`, JSON text), so the
  // apply can be put back exactly and a zone changed since can be noticed. A revert is a row of its
  // own (kind revert, reverts_apply_id) and marks the apply it undid (reverted_at).
  await db.schema
    .createTable('setup_applies')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'integer', (c) => c.notNull().references('dns_connections.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('apply', 'revert')`))
    .addColumn('reverts_apply_id', 'integer', (c) => c.references('setup_applies.id'))
    .addColumn('rrsets', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reverted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('setup_applies_account_domain').on('setup_applies').columns(['account_id', 'domain', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('setup_applies').ifExists().execute();
}
