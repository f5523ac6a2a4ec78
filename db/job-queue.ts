import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Queues a job unless one with its key is queued already. */
export async function insertQueuedJob(
  db: Kysely<Database>,
  job: { task: string; payload: string; job_key: string | null; run_at: Date; max_attempts?: number },
): Promise<void> {
  await db
    .insertInto('job_queue')
    .values(job)
    .onConflict((oc) => oc.column('job_key').doNothing())
    .execute();
}

/** Unlocks every locked job (at the start: whatever is locked was cut off by the last stop). */
export async function unlockQueuedJobs(db: Kysely<Database>): Promise<void> {
  await db.updateTable('job_queue').set({ locked_at: null }).where('locked_at', 'is not', null).execute();
}

/** Up to 10,000 queued jobs, the soonest due first. */
export function listQueuedJobs(db: Kysely<Database>) {
  return db.selectFrom('job_queue').select(['task', 'attempts', 'max_attempts', 'last_error', 'locked_at']).orderBy('run_at').limit(10000).execute();
}

export interface TakenJob {
  id: number;
  task: string;
  payload: string;
  attempts: number;
  max_attempts: number;
}

/**
 * Takes the next due job of these tasks: locked and its attempt counted in one statement, the row
 * chosen FOR UPDATE SKIP LOCKED so two pollers never take one job.
 */
export async function takeQueuedJob(db: Kysely<Database>, tasks: readonly string[]): Promise<TakenJob | undefined> {
  const { rows } = await sql<TakenJob>`
    update job_queue set locked_at = now(), attempts = attempts + 1
    where id = (select id from job_queue where locked_at is null and run_at <= now() and attempts < max_attempts
                and task in (${sql.join(tasks)})
                order by run_at, id limit 1 for update skip locked)
    returning id, task, payload, attempts, max_attempts`.execute(db);
  return rows[0];
}

export async function deleteQueuedJob(db: Kysely<Database>, jobId: number): Promise<void> {
  await db.deleteFrom('job_queue').where('id', '=', jobId).execute();
}

/** Unlocks a failed job with its error, to run again at `runAt`. */
export async function releaseQueuedJob(db: Kysely<Database>, jobId: number, lastError: string, runAt: Date): Promise<void> {
  await db.updateTable('job_queue').set({ locked_at: null, last_error: lastError, run_at: runAt }).where('id', '=', jobId).execute();
}

/** Whether graphile-worker's schema exists (PostgreSQL with its worker started once); false when it cannot be read. */
export async function hasGraphileJobs(db: Kysely<Database>): Promise<boolean> {
  const result = await sql<{ present: boolean }>`select to_regclass('graphile_worker.jobs') is not null as present`.execute(db).catch(() => null);
  return result?.rows[0]?.present === true;
}

/** Up to 10,000 of graphile-worker's jobs, the soonest due first. */
export async function listGraphileJobs(
  db: Kysely<Database>,
): Promise<{ task: string; attempts: number; max_attempts: number; last_error: string | null; locked: boolean }[]> {
  const { rows } = await sql<{ task: string; attempts: number; max_attempts: number; last_error: string | null; locked: boolean }>`
      select task_identifier as task, attempts, max_attempts, last_error, locked_at is not null as locked from graphile_worker.jobs order by run_at limit 10000`.execute(
    db,
  );
  return rows;
}

/** The latest 100 worker pools' heartbeats, newest first: how long ago each reported and how many jobs it holds. */
export async function listWorkerHeartbeats(db: Kysely<Database>): Promise<{ worker_id: string; instance: string; seconds: number; running: number }[]> {
  const beats = await sql<{ worker_id: string; instance: string; seconds: number; running: number }>`
      select h.worker_id, h.instance, extract(epoch from now() - h.last_seen)::float8 as seconds,
             (select count(*)::int from graphile_worker.jobs j where j.locked_by = h.worker_id) as running
        from worker_heartbeats h order by h.last_seen desc limit 100`.execute(db);
  return beats.rows;
}
