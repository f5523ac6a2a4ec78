import type pg from 'pg';

// These take graphile-worker's own pg pool (jobs/worker-lease.ts), not the Kysely instance: a worker
// pool's heartbeat goes over the connections that pool runs on (PostgreSQL only), and
// graphile_worker's tables are not in the Database interface.

/** Writes the worker pool's heartbeat (now, by the database's clock). */
export async function beatWorkerHeartbeat(pool: pg.Pool, workerId: string, instance: string): Promise<void> {
  await pool.query(
    `insert into worker_heartbeats (worker_id, instance) values ($1, $2)
        on conflict (worker_id) do update set last_seen = now()`,
    [workerId, instance],
  );
}

export async function deleteWorkerHeartbeat(pool: pg.Pool, workerId: string): Promise<void> {
  await pool.query('delete from worker_heartbeats where worker_id = $1', [workerId]);
}

/**
 * Each worker holding graphile_worker jobs with no heartbeat within the lease, when one of its jobs has
 * been locked that long too, with how many jobs it holds: one statement over graphile_worker's locked
 * jobs (a handful at any time).
 */
export async function listDeadWorkers(pool: pg.Pool, leaseMs: number): Promise<{ worker_id: string; jobs: number }[]> {
  const { rows } = await pool.query<{ worker_id: string; jobs: number }>(
    `
    select jobs.locked_by as worker_id, count(*)::int as jobs
      from graphile_worker._private_jobs as jobs
     where jobs.locked_by is not null
       and not exists (select 1 from worker_heartbeats as h
                        where h.worker_id = jobs.locked_by and h.last_seen > now() - make_interval(secs => $1::float8 / 1000))
     group by jobs.locked_by
    having min(jobs.locked_at) < now() - make_interval(secs => $1::float8 / 1000)`,
    [leaseMs],
  );
  return rows;
}

/** Unlocks the workers' jobs through graphile-worker's own force_unlock_workers, so other workers take them as retries. */
export async function unlockJobsOfWorkers(pool: pg.Pool, workerIds: readonly string[]): Promise<void> {
  await pool.query('select graphile_worker.force_unlock_workers($1::text[])', [workerIds]);
}

/** Deletes the heartbeats not written within `age` (a PostgreSQL interval such as '1 day'). */
export async function deleteWorkerHeartbeatsOlderThan(pool: pg.Pool, age: string): Promise<void> {
  await pool.query('delete from worker_heartbeats where last_seen < now() - $1::interval', [age]);
}
