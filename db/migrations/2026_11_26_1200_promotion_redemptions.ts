import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per placement that holds one of a code's redemptions, keyed by the placement's
  // Idempotency-Key so a retry of the same placement keeps its redemption instead of taking another.
  await db.schema
    .createTable('promotion_redemptions')
    .addColumn('promotion_code_id', 'integer', (c) => c.notNull().references('promotion_codes.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('promotion_redemptions_pk', ['promotion_code_id', 'account_id', 'idempotency_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('promotion_redemptions').ifExists().execute();
}
