import { hostname } from 'node:os';
import type pg from 'pg';
import { log } from '../observability/log.js';
import { beatWorkerHeartbeat, deleteWorkerHeartbeat, deleteWorkerHeartbeatsOlderThan, listDeadWorkers, unlockJobsOfWorkers } from '../db/worker-heartbeats.js';

/** How often a worker reports and looks for dead ones: a quarter of the lease, between 250 ms and 5 s. */
export function heartbeatIntervalMs(leaseMs: number): number {
  return Math.min(5000, Math.max(250, Math.floor(leaseMs / 4)));
}

/** Rows of workers gone this long are deleted (a dead worker's row is kept a while to show what happened). */
const FORGET_AFTER = '1 day';

export interface WorkerLease {
  /** Stops reporting and deletes this worker's row (after its runner has stopped and released its jobs). */
  stop(): Promise<void>;
}

/**
 * graphile-worker 0.17 leaves a job locked for four hours when the process running it dies without
 * stopping (SIGKILL, a lost machine). So each instance's worker pool writes a heartbeat row every few
 * seconds, and each instance, at the same beat, unlocks the jobs of any worker not seen for the lease:
 * graphile-worker's force_unlock_workers, its own function for exactly this. Another instance's worker
 * then takes them at its next poll, as a retry. All times are the database's, so instances' clocks
 * need not agree.
 *
 * A job is unlocked only if it has been locked longer than the lease as well: a worker that has just
 * started may lock a job before its first heartbeat is written, and an instance from before heartbeats
 * existed writes none. A worker stalled past the lease (not dead) may see its job run a second time
 * elsewhere; every task is idempotent, so nothing is recorded twice.
 */
export function keepWorkerLease(pool: pg.Pool, workerId: string, leaseMs: number): WorkerLease {
  const instance = `${hostname()} pid ${process.pid}`;
  let stopped = false;
  let beating: Promise<void> = Promise.resolve();
  const beat = async () => {
    try {
      await beatWorkerHeartbeat(pool, workerId, instance);
      const released = await releaseDeadWorkers(pool, leaseMs);
      if (released.workers.length > 0) {
        log('warn', 'unlocked the jobs of workers not seen within JOB_LEASE_MS; another instance retries them', {
          workers: released.workers,
          jobs: released.jobs,
          lease_ms: leaseMs,
        });
      }
    } catch (error) {
      // The database away: the next beat tries again (and others may take this worker for dead; tasks are idempotent).
      log('warn', 'could not write the worker heartbeat', { reason: error instanceof Error ? error.message : String(error) });
    }
  };
  beating = beat();
  const timer = setInterval(() => {
    if (!stopped) beating = beating.then(beat);
  }, heartbeatIntervalMs(leaseMs));
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await beating;
      await deleteWorkerHeartbeat(pool, workerId).catch(() => undefined);
    },
  };
}

export interface ReleasedWorkers {
  readonly workers: readonly string[];
  readonly jobs: number;
}

/**
 * Unlocks every job held by a worker with no heartbeat within the lease, when one of its jobs has been
 * locked that long: one statement over graphile_worker's locked jobs (a handful at any time), then
 * graphile-worker's own force_unlock_workers for the dead ones. Rows of long-gone workers are deleted.
 */
export async function releaseDeadWorkers(pool: pg.Pool, leaseMs: number): Promise<ReleasedWorkers> {
  const rows = await listDeadWorkers(pool, leaseMs);
  const workers = rows.map((r) => r.worker_id);
  if (workers.length > 0) await unlockJobsOfWorkers(pool, workers);
  await deleteWorkerHeartbeatsOlderThan(pool, FORGET_AFTER);
  return { workers, jobs: rows.reduce((sum, r) => sum + r.jobs, 0) };
}
