import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // The DMARC ramp's timeline (docs/dmarc-ramp.md): one row per step taken (kind advanced, with the
  // journal entry of the publish) or undone (kind reverted, with the revert's own entry and the row it
  // undid). The DMARC record before and after is kept as read and as written, so the timeline shows
  // exactly what changed, whoever reads it later.
  await db.schema
    .createTable('dmarc_ramp_steps')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('advanced', 'reverted')`))
    .addColumn('from_step', 'text', (c) => c.notNull())
    .addColumn('to_step', 'text', (c) => c.notNull())
    .addColumn('record_before', 'text', (c) => c.notNull())
    .addColumn('record_after', 'text', (c) => c.notNull())
    .addColumn('apply_id', 'integer', (c) => c.notNull().references('setup_applies.id'))
    .addColumn('reverts_step_id', 'integer', (c) => c.references('dmarc_ramp_steps.id'))
    .addColumn('automatic', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('pass_rate', 'real')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('dmarc_ramp_steps_account_domain').on('dmarc_ramp_steps').columns(['account_id', 'domain', 'id']).execute();
  // Automatic advancing is the account's choice, off until it says so; the sweep runs it once a day (run_on).
  await db.schema
    .alterTable('accounts')
    .addColumn('dmarc_ramp_auto', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('dmarc_ramp_run_on', 'date')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('dmarc_ramp_run_on').execute();
  await db.schema.alterTable('accounts').dropColumn('dmarc_ramp_auto').execute();
  await db.schema.dropTable('dmarc_ramp_steps').ifExists().execute();
}
