import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { summarise, type QueuedJobRow } from './graphile-runner.js';
import type { QueueState } from './job-types.js';
import { jobsConfigFromEnv } from './jobs-config.js';

/**
 * The queue as `admin jobs` prints it, read from the database alone (the command may run in another
 * process): graphile-worker's jobs when its schema exists (PostgreSQL), else the in-process table;
 * plus the work waiting behind the jobs (domains by build state, events not yet fanned out,
 * webhook deliveries by status).
 */
export async function readQueueState(db: Kysely<Database>, leaseMs: number = jobsConfigFromEnv().leaseMs): Promise<Record<string, unknown>> {
  let state: QueueState;
  let workers: Record<string, unknown>[] | undefined;
  const graphile = await sql<{ present: boolean }>`select to_regclass('graphile_worker.jobs') is not null as present`.execute(db).catch(() => null);
  if (graphile?.rows[0]?.present) {
    const { rows } = await sql<{ task: string; attempts: number; max_attempts: number; last_error: string | null; locked: boolean }>`
      select task_identifier as task, attempts, max_attempts, last_error, locked_at is not null as locked from graphile_worker.jobs order by run_at limit 10000`.execute(
      db,
    );
    state = summarise(
      'graphile-worker',
      rows.map((r): QueuedJobRow => ({ task: r.task, attempts: r.attempts, maxAttempts: r.max_attempts, lastError: r.last_error, locked: r.locked })),
    );
    // Each instance's worker pool and when it last reported (jobs/worker-lease.ts): a pool silent for
    // JOB_LEASE_MS is taken for dead and its jobs are handed on; it is listed as dead (its row is
    // kept a day, to show what happened) and counted in neither workers_alive nor running.
    const beats = await sql<{ worker_id: string; instance: string; seconds: number; running: number }>`
      select h.worker_id, h.instance, extract(epoch from now() - h.last_seen)::float8 as seconds,
             (select count(*)::int from graphile_worker.jobs j where j.locked_by = h.worker_id) as running
        from worker_heartbeats h order by h.last_seen desc limit 100`.execute(db);
    workers = beats.rows.map((r) => {
      const alive = Number(r.seconds) * 1000 <= leaseMs;
      return {
        worker_id: r.worker_id,
        instance: r.instance,
        state: alive ? 'alive' : 'dead',
        last_seen_seconds_ago: Math.round(Number(r.seconds) * 10) / 10,
        running: alive ? Number(r.running) : 0,
      };
    });
  } else {
    const rows = await db
      .selectFrom('job_queue')
      .select(['task', 'attempts', 'max_attempts', 'last_error', 'locked_at'])
      .orderBy('run_at')
      .limit(10000)
      .execute();
    state = summarise(
      'in-process',
      rows.map((r) => ({ task: r.task, attempts: r.attempts, maxAttempts: r.max_attempts, lastError: r.last_error, locked: r.locked_at !== null })),
    );
  }
  const count = (rows: { key: string; n: number | string | bigint }[]) => Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]));
  const domains = await db
    .selectFrom('domains')
    .select(['build_state as key', sql<number>`count(*)`.as('n')])
    .groupBy('build_state')
    .execute();
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select(['status as key', sql<number>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  const unfanned = await db.selectFrom('events').select(sql<number>`count(*)`.as('n')).where('fanned_out_at', 'is', null).executeTakeFirst();
  return {
    ...state,
    ...(workers && { workers, workers_alive: workers.filter((w) => w.state === 'alive').length }),
    domains_by_build_state: count(domains),
    events_waiting_fan_out: Number(unfanned?.n ?? 0),
    webhook_deliveries: count(deliveries),
  };
}
