import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { log } from '../server/log.js';
import type { EnqueueOptions, JobEnvironment, QueueState, TaskFunction, TaskName, WorkerLane } from './job-types.js';
import { summarise } from './graphile-runner.js';
import { backoffSeconds } from './backoff.js';
import { recordJobFailure, recordJobFinished } from '../server/metrics.js';

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
      await db
        .insertInto('job_queue')
        .values({
          task,
          payload: JSON.stringify(payload),
          job_key: options.key ?? null,
          run_at: options.runAt ?? new Date(),
          ...(options.maxAttempts && { max_attempts: options.maxAttempts }),
        })
        .onConflict((oc) => oc.column('job_key').doNothing())
        .execute();
    },
    async startWorkers(workerLanes, env) {
      // Only this process uses the data folder: whatever is locked was cut off by the last stop.
      await db.updateTable('job_queue').set({ locked_at: null }).where('locked_at', 'is not', null).execute();
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
              const job = await takeJob(db, names).catch(() => undefined);
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
      const rows = await db
        .selectFrom('job_queue')
        .select(['task', 'attempts', 'max_attempts', 'last_error', 'locked_at'])
        .orderBy('run_at')
        .limit(10000)
        .execute();
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

interface TakenJob {
  id: number;
  task: string;
  payload: string;
  attempts: number;
  max_attempts: number;
}

async function takeJob(db: Kysely<Database>, tasks: readonly string[]): Promise<TakenJob | undefined> {
  const { rows } = await sql<TakenJob>`
    update job_queue set locked_at = now(), attempts = attempts + 1
    where id = (select id from job_queue where locked_at is null and run_at <= now() and attempts < max_attempts
                and task in (${sql.join(tasks)})
                order by run_at, id limit 1 for update skip locked)
    returning id, task, payload, attempts, max_attempts`.execute(db);
  return rows[0];
}

async function runJob(db: Kysely<Database>, job: TakenJob, tasks: Partial<Record<TaskName, TaskFunction>>, env: JobEnvironment): Promise<void> {
  const fn = tasks[job.task as TaskName];
  const started = performance.now();
  try {
    if (!fn) throw new Error(`No task is called "${job.task}".`);
    await fn(JSON.parse(job.payload), env, { id: String(job.id), attempt: job.attempts });
    await db.deleteFrom('job_queue').where('id', '=', job.id).execute();
    recordJobFinished(job.task, (performance.now() - started) / 1000);
  } catch (error) {
    recordJobFailure(job.task);
    const message = (error as Error).message ?? String(error);
    log('warn', 'job failed; it will be retried with backoff', { job_id: String(job.id), task: job.task, attempt: job.attempts, reason: message });
    await db
      .updateTable('job_queue')
      .set({
        locked_at: null,
        last_error: message.slice(0, 1000),
        run_at: new Date(Date.now() + backoffSeconds(job.attempts) * 1000),
      })
      .where('id', '=', job.id)
      .execute()
      .catch(() => undefined);
  }
}
