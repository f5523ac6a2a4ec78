import type { Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // The last background probe of each blocklist's RFC 5782 test points, shared by every request and
  // instance. `zone_digest` names the zone asked (a Spamhaus DQS key changes it), so a row probed
  // under another zone is not taken for this one. `alive` null: a test point gave no usable answer.
  await db.schema
    .createTable('dnsbl_liveness')
    .addColumn('list_id', 'text', (c) => c.primaryKey())
    .addColumn('zone', 'text', (c) => c.notNull())
    .addColumn('zone_digest', 'text', (c) => c.notNull())
    .addColumn('alive', 'boolean')
    .addColumn('reason', 'text')
    .addColumn('probed_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dnsbl_liveness').ifExists().execute();
}
