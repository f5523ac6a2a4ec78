import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // What the build found and when monitoring last looked: shown on the dashboard, read by the jobs.
  await db.schema
    .alterTable('domains')
    .addColumn('build_reason', 'text')
    .addColumn('build_problems', 'text')
    .addColumn('built_at', 'timestamptz')
    .addColumn('last_monitored_at', 'timestamptz')
    .addColumn('monitor_queued_slot', 'text')
    .execute();

  // The in-process queue used on embedded PGlite (PostgreSQL uses graphile-worker's own schema).
  // In a table rather than in memory so that a restart loses nothing and `admin jobs` can read it.
  await db.schema
    .createTable('job_queue')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('task', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('job_key', 'text', (c) => c.unique())
    .addColumn('run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(25))
    .addColumn('last_error', 'text')
    .addColumn('locked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('job_queue_run_at').on('job_queue').columns(['run_at', 'id']).execute();

  // One row per domain and monitoring slot: the primary key makes a retried run record nothing twice.
  await db.schema
    .createTable('monitor_runs')
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id'))
    .addColumn('slot', 'text', (c) => c.notNull())
    .addColumn('ran_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('grade', 'text')
    .addColumn('listed_on', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('dns_questions', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('monitor_runs_pk', ['domain_id', 'slot'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('fanned_out_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('events_account').on('events').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addUniqueConstraint('webhook_deliveries_once', ['endpoint_id', 'event_id'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
    .execute();

  // Who gets the e-mail alerts of an account, and which alerts went out (one per event and address).
  await db.schema
    .createTable('alert_recipients')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_recipients_pk', ['account_id', 'email'])
    .execute();
  await db.schema
    .createTable('alert_emails')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('transport', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_emails_pk', ['event_id', 'email'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'alert_emails',
    'alert_recipients',
    'webhook_attempts',
    'webhook_deliveries',
    'webhook_endpoints',
    'events',
    'monitor_runs',
    'job_queue',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema
    .alterTable('domains')
    .dropColumn('build_reason')
    .dropColumn('build_problems')
    .dropColumn('built_at')
    .dropColumn('last_monitored_at')
    .dropColumn('monitor_queued_slot')
    .execute();
}
