import { countDomainsByBuildState } from '../db/domains.js';
import { countEventsWaitingFanOut } from '../db/events.js';
import { hasGraphileJobs, listGraphileJobs, listQueuedJobs, listWorkerHeartbeats } from '../db/job-queue.js';
import { countWebhookDeliveriesByStatus } from '../db/webhook-deliveries.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { summarise, type QueuedJobRow } from './graphile-runner.js';
import type { QueueState } from './job-types.js';

/**
 * The queue as `admin jobs` prints it, read from the database alone (the command may run in another
 * process): graphile-worker's jobs when its schema exists (PostgreSQL), else the in-process table;
 * plus the work waiting behind the jobs (domains by build state, events not yet fanned out,
 * webhook deliveries by status).
 */
export async function readQueueState(db: Kysely<Database>, leaseMs: number): Promise<Record<string, unknown>> {
  let state: QueueState;
  let workers: Record<string, unknown>[] | undefined;
  const graphile = await hasGraphileJobs(db);
  if (graphile) {
    const rows = await listGraphileJobs(db);
    state = summarise(
      'graphile-worker',
      rows.map((r): QueuedJobRow => ({ task: r.task, attempts: r.attempts, maxAttempts: r.max_attempts, lastError: r.last_error, locked: r.locked })),
    );
    // Each instance's worker pool and when it last reported (jobs/worker-lease.ts): a pool silent for
    // JOB_LEASE_MS is taken for dead and its jobs are handed on; it is listed as dead (its row is
    // kept a day, to show what happened) and counted in neither workers_alive nor running.
    const beats = await listWorkerHeartbeats(db);
    workers = beats.map((r) => {
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
    const rows = await listQueuedJobs(db);
    state = summarise(
      'in-process',
      rows.map((r) => ({ task: r.task, attempts: r.attempts, maxAttempts: r.max_attempts, lastError: r.last_error, locked: r.locked_at !== null })),
    );
  }
  const count = (rows: { key: string; n: number | string | bigint }[]) => Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]));
  const domains = await countDomainsByBuildState(db);
  const deliveries = await countWebhookDeliveriesByStatus(db);
  const unfanned = await countEventsWaitingFanOut(db);
  return {
    ...state,
    ...(workers && { workers, workers_alive: workers.filter((w) => w.state === 'alive').length }),
    domains_by_build_state: count(domains),
    events_waiting_fan_out: unfanned,
    webhook_deliveries: count(deliveries),
  };
}
