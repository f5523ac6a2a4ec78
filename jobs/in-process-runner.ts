import { type TakenJob, deleteQueuedJob, insertQueuedJob, listQueuedJobs, releaseQueuedJob, takeQueuedJob, unlockQueuedJobs } from '../db/job-queue.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { log } from '../observability/log.js';
import type { EnqueueOptions, JobEnvironment, QueueState, TaskFunction, TaskName, WorkerLane } from './job-types.js';
import { summarise } from './graphile-runner.js';
import { backoffSeconds } from './backoff.js';
import { recordJobFailure, recordJobFinished } from '../observability/metrics.js';

export interface InProcessQueue {
  enqueue(task: TaskName, payload: Record<string, unknown>, options?: EnqueueOptions): Promise<void>;
  startWorkers(lanes: readonly WorkerLane[], env: () => JobEnvironment): Promise<void>;
  state(): Promise<QueueState>;
  stop(): Promise<void>;
}

/**
 * The queue on embedded PGlite, which serves one process: graphile-worker needs LISTEN/NOTIFY and a
 * pool of real connections, so the same task functions run here from a table (job_queue) polled in
 * this process. One instance only, by construction (the data folder is locked to one process). Jobs
 * are rows, so a restart loses none: a job that was running when the process died is unlocked at
 * the next start and run again. Retries wait as graphile-worker's do (about e^attempts seconds).
 */
export function openInProcessQueue(db: Kysely<Database>, pollIntervalMs: number): InProcessQueue {
  const lanes: { timer: NodeJS.Timeout | null }[] = [];
  let stopped = false;
  const running = new Set<Promise<void>>();
  return {
    async enqueue(task, payload, options = {}) {
      await insertQueuedJob(db, {
        task,
        payload: JSON.stringify(payload),
        job_key: options.key ?? null,
        run_at: options.runAt ?? new Date(),
        ...(options.maxAttempts && { max_attempts: options.maxAttempts }),
      });
    },
    async startWorkers(workerLanes, env) {
      // Only this process uses the data folder: whatever is locked was cut off by the last stop.
      await unlockQueuedJobs(db);
      for (const lane of workerLanes) {
        const names = Object.keys(lane.tasks);
        const mine = new Set<Promise<void>>();
        let polling = false;
        const slot: { timer: NodeJS.Timeout | null } = { timer: null };
        lanes.push(slot);
        // Takes this lane's jobs while it has free slots; a finished job polls again at once, so a busy
        // queue runs back to back and an idle one is looked at every pollIntervalMs.
        const poll = async () => {
          if (polling || stopped) return;
          polling = true;
          if (slot.timer) clearTimeout(slot.timer);
          try {
            while (!stopped && mine.size < lane.concurrency) {
              const job = await takeQueuedJob(db, names).catch(() => undefined);
              if (!job) break;
              const work = runJob(db, job, lane.tasks, env()).finally(() => {
                mine.delete(work);
                running.delete(work);
                void poll();
              });
              mine.add(work);
              running.add(work);
            }
          } finally {
            polling = false;
            if (!stopped) slot.timer = setTimeout(() => void poll(), pollIntervalMs);
          }
        };
        slot.timer = setTimeout(() => void poll(), 0);
      }
    },
    async state() {
      const rows = await listQueuedJobs(db);
      return summarise(
        'in-process',
        rows.map((r) => ({ task: r.task, attempts: r.attempts, maxAttempts: r.max_attempts, lastError: r.last_error, locked: r.locked_at !== null })),
      );
    },
    async stop() {
      stopped = true;
      for (const lane of lanes) if (lane.timer) clearTimeout(lane.timer);
      await Promise.allSettled([...running]);
    },
  };
}

async function runJob(db: Kysely<Database>, job: TakenJob, tasks: Partial<Record<string, TaskFunction>>, env: JobEnvironment): Promise<void> {
  // A task name taken from the table is any string; one this lane does not run has no function.
  const fn = tasks[job.task];
  const started = performance.now();
  try {
    if (!fn) throw new Error(`No task is called "${job.task}".`);
    await fn(JSON.parse(job.payload), env, { id: String(job.id), attempt: job.attempts });
    await deleteQueuedJob(db, job.id);
    recordJobFinished(job.task, (performance.now() - started) / 1000);
  } catch (error) {
    recordJobFailure(job.task);
    const message = error instanceof Error ? error.message : String(error);
    log('warn', 'job failed; it will be retried with backoff', { job_id: String(job.id), task: job.task, attempt: job.attempts, reason: message });
    await releaseQueuedJob(db, job.id, message.slice(0, 1000), new Date(Date.now() + backoffSeconds(job.attempts) * 1000)).catch(() => undefined);
  }
}
