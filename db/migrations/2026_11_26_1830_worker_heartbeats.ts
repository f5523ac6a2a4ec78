import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per running job worker (graphile-worker's pool id, the value its jobs carry in
  // locked_by), refreshed every few seconds. A worker not seen for JOB_LEASE_MS is taken for dead and
  // its jobs are unlocked, so another instance runs them (a SIGKILLed process releases nothing itself).
  await db.schema
    .createTable('worker_heartbeats')
    .addColumn('worker_id', 'text', (c) => c.primaryKey())
    .addColumn('instance', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('worker_heartbeats').ifExists().execute();
}
