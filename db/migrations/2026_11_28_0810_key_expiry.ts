import type { Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // A key may expire: chosen when it is made, or set by a roll (the old key works for the grace period
  // its person picked, then stops). `rolled_to_key_id` names the key that replaced it.
  await db.schema
    .alterTable('api_keys')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('rolled_to_key_id', 'integer', (c) => c.references('api_keys.id'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('rolled_to_key_id').dropColumn('expires_at').execute();
}
