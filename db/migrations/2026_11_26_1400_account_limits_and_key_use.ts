import type { Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // Per-account allowances set by the operator (SPEC 8: "higher limits can be requested from the
  // operator"); null keeps the service-wide default. Read with the key on every request, so a change
  // applies on every instance at once.
  await db.schema
    .alterTable('accounts')
    .addColumn('read_per_minute', 'integer')
    .addColumn('change_per_minute', 'integer')
    .addColumn('orders_per_hour', 'integer')
    .execute();
  // When a key was last used, kept to the minute so a request does not write on every call.
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
  await db.schema.alterTable('accounts').dropColumn('read_per_minute').dropColumn('change_per_minute').dropColumn('orders_per_hour').execute();
}
