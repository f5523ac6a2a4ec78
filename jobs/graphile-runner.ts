import { EventEmitter } from 'node:events';
import pg from 'pg';
import { Logger, makeWorkerUtils, run, type Runner, type Task, type TaskList, type WorkerEvents, type WorkerUtils } from 'graphile-worker';
import { log } from '../observability/log.js';
import type { EnqueueOptions, JobEnvironment, QueueState, TaskName, WorkerLane } from './job-types.js';
import { recordJobFailure, recordJobFinished } from '../observability/metrics.js';
import { keepWorkerLease, type WorkerLease } from './worker-lease.js';

/** graphile-worker's messages in our log format; its debug and info chatter is left out. */
const logger = new Logger(() => (level, message, meta) => {
  if (level === 'error' || level === 'warning')
    log(level === 'error' ? 'error' : 'warn', `graphile-worker: ${message}`, { job_id: (meta as { jobId?: string } | undefined)?.jobId });
});

export interface GraphileQueue {
  enqueue(task: TaskName, payload: Record<string, unknown>, options?: EnqueueOptions): Promise<void>;
  /** Starts this instance's workers, one pool per lane (not called when JOBS=off: such an instance only enqueues). */
  startWorkers(lanes: readonly WorkerLane[], env: () => JobEnvironment): Promise<void>;
  state(): Promise<QueueState>;
  stop(): Promise<void>;
}

export interface GraphileQueueOptions {
  /** JOB_LEASE_MS: a worker not heard from for this long is taken for dead and its jobs unlocked (jobs/worker-lease.ts). */
  readonly leaseMs: number;
}

/**
 * Jobs on PostgreSQL through graphile-worker: a job is locked by one worker (SELECT ... FOR UPDATE
 * SKIP LOCKED), so every instance can run workers and each job still runs once; failures are retried
 * with exponential backoff (about e^attempts seconds); jobs live in the database, so they survive a
 * restart; NOTIFY wakes idle workers at once. Its schema (graphile_worker) is installed at start, one
 * instance at a time. Each instance's worker pool keeps a heartbeat, and the jobs of a pool that died
 * without stopping are unlocked after the lease rather than graphile-worker's four hours.
 */
export async function openGraphileQueue(databaseUrl: string, options: GraphileQueueOptions): Promise<GraphileQueue> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const lock = await pool.connect();
  let utils: WorkerUtils;
  try {
    // graphile-worker copes with two installs racing, but one at a time keeps its log quiet.
    await lock.query('select pg_advisory_lock(hashtext($1))', ['graphile_worker_install']);
    utils = await makeWorkerUtils({ pgPool: pool, logger });
    await utils.migrate();
  } finally {
    await lock.query('select pg_advisory_unlock(hashtext($1))', ['graphile_worker_install']).catch(() => {});
    lock.release();
  }
  const runners: Runner[] = [];
  const workerPools: pg.Pool[] = [];
  const leases: WorkerLease[] = [];
  return {
    async enqueue(task, payload, options = {}) {
      await utils.addJob(task, payload, {
        // A delivery's key names one attempt: while that job runs, the same key queued again adds
        // nothing (graphile-worker would otherwise add a second job beside the locked one). The
        // attempt's row claimed in the database is what finally keeps a POST from going twice.
        ...(options.key && { jobKey: options.key, jobKeyMode: task === 'deliver_webhook' ? ('unsafe_dedupe' as const) : ('preserve_run_at' as const) }),
        ...(options.runAt && { runAt: options.runAt }),
        ...(options.maxAttempts && { maxAttempts: options.maxAttempts }),
      });
    },
    async startWorkers(lanes, env) {
      for (const lane of lanes) {
        const workerPool = new pg.Pool({ connectionString: databaseUrl, max: lane.concurrency + 2 });
        workerPool.on('error', () => {});
        workerPool.on('connect', (client) => {
          client.on('error', () => {});
        });
        workerPools.push(workerPool);
        const taskList: TaskList = {};
        for (const [name, fn] of Object.entries(lane.tasks)) {
          const wrapped: Task = async (payload, helpers) => {
            const started = performance.now();
            try {
              await fn(payload, env(), { id: helpers.job.id, attempt: helpers.job.attempts });
              recordJobFinished(name, (performance.now() - started) / 1000);
            } catch (error) {
              recordJobFailure(name);
              log('warn', 'job failed; it will be retried with backoff', {
                job_id: helpers.job.id,
                task: name,
                attempt: helpers.job.attempts,
                reason: error instanceof Error ? error.message : String(error),
              });
              throw error;
            }
          };
          taskList[name] = wrapped;
        }
        // The pool's id is what its jobs carry in locked_by; it is known only as the pool is made, so the
        // heartbeat starts from that event, before any job is taken. A runner takes only its own tasks.
        const events: WorkerEvents = new EventEmitter();
        let lease: WorkerLease | null = null;
        events.on('pool:create', ({ workerPool: created }) => {
          if (lease) return;
          lease = keepWorkerLease(pool, created.id, options.leaseMs);
          leases.push(lease);
        });
        const runner = await run({
          pgPool: workerPool,
          taskList,
          concurrency: lane.concurrency,
          noHandleSignals: true,
          pollInterval: 1000,
          logger,
          events,
          // A job that ends while the database is away must not end the process: unbatched,
          // graphile-worker records the outcome with retries only for a few error codes (not a refused
          // connection) and leaves the rejection unhandled, which stops Node. Batched (delay 0: no
          // waiting), it retries any error with backoff for several minutes, and past that shuts only
          // this pool down (its jobs are released once its lease lapses: docs/operations.md).
          preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
        });
        runner.promise.catch((error: unknown) => {
          log('error', 'a job worker pool stopped after the database stayed unreachable; restart the process to take jobs here again', {
            reason: error instanceof Error ? error.message : String(error),
          });
        });
        runners.push(runner);
      }
    },
    async state() {
      const { rows } = await pool.query(`select task_identifier as task, attempts, max_attempts, last_error, locked_at is not null as locked
        from graphile_worker.jobs order by run_at limit 10000`);
      return summarise(
        'graphile-worker',
        rows.map((r) => ({ task: r.task, attempts: r.attempts, maxAttempts: r.max_attempts, lastError: r.last_error, locked: r.locked })),
      );
    },
    async stop() {
      await Promise.all(runners.map((r) => r.stop().catch(() => {})));
      // After the runners: their jobs are released, so the rows can go.
      await Promise.all(leases.map((l) => l.stop().catch(() => {})));
      await Promise.all(workerPools.map((p) => p.end().catch(() => {})));
      await Promise.resolve()
        .then(() => utils.release())
        .catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}

export interface QueuedJobRow {
  task: string;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  locked: boolean;
}

export function summarise(runner: QueueState['runner'], rows: readonly QueuedJobRow[]): QueueState {
  const byTask: Record<string, number> = {};
  let running = 0;
  let retrying = 0;
  let failed = 0;
  let waiting = 0;
  for (const r of rows) {
    byTask[r.task] = (byTask[r.task] ?? 0) + 1;
    if (r.locked) running += 1;
    else if (r.attempts >= r.maxAttempts) failed += 1;
    else if (r.attempts > 0) retrying += 1;
    else waiting += 1;
  }
  const lastErrors = rows
    .filter((r) => r.lastError)
    .slice(0, 10)
    .map((r) => ({ task: r.task, attempts: r.attempts, error: String(r.lastError).slice(0, 300) }));
  return { runner, waiting, running, retrying, failed, by_task: byTask, last_errors: lastErrors };
}
