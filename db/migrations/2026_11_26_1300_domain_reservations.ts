import type { Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // A domain held by one placement from before the charge until its order is recorded, so two
  // placements of one domain cannot both charge. Keyed by the placement's Idempotency-Key so a retry
  // keeps its hold; a hold left by a placement that never finished lapses at expires_at.
  await db.schema
    .createTable('domain_reservations')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('domain_reservations_holder').on('domain_reservations').columns(['account_id', 'idempotency_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('domain_reservations').ifExists().execute();
}
