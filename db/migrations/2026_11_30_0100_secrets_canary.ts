import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // One known value sealed with SECRETS_KEY, in one row: the start opens it and stops with a sentence
  // when it does not open (another key), instead of failing every sealed secret later
  // (docs/operations.md, "Rotating SECRETS_KEY").
  await db.schema
    .createTable('secrets_canary')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('secrets_canary').execute();
}
