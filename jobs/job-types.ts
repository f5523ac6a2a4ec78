import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Services } from '../resolvers/context.js';
import type { JobsConfig } from '../config/settings.js';
import type { ProvisioningAdapter } from '../clients/mailboxes/provisioning-adapter.js';
import type { AlertMailer } from '../clients/mail/alert-mailer.js';

export interface EnqueueOptions {
  /** Jobs with the same key collapse into one while it waits (graphile-worker's job_key). */
  readonly key?: string;
  readonly runAt?: Date;
  readonly maxAttempts?: number;
}

/** Adds a job; both runners take the same arguments. */
export type Enqueue = (task: TaskName, payload: Record<string, unknown>, options?: EnqueueOptions) => Promise<void>;

/** What every task function is handed, whichever runner runs it. */
export interface JobEnvironment {
  readonly db: Kysely<Database>;
  readonly services: Services;
  readonly config: JobsConfig;
  readonly adapter: ProvisioningAdapter;
  readonly mailer: AlertMailer;
  readonly enqueue: Enqueue;
  /** Test hook: names of faults to raise once (a job "killed" at that point). */
  readonly faults: Set<string>;
}

export interface JobRun {
  readonly id: string;
  /** 1 on the first try. */
  readonly attempt: number;
}

export type TaskFunction = (payload: any, env: JobEnvironment, run: JobRun) => Promise<void>;

export const TASK_NAMES = [
  'sweep',
  'build_domain',
  'check_domain_setup',
  'monitor_domain',
  'fan_out_event',
  'deliver_webhook',
  'send_alert_email',
  'probe_dnsbl_liveness',
  'check_mailboxes',
  'suspend_mailboxes',
  'reactivate_mailboxes',
  'dmarc_ramp',
  'issue_forwarding_certificate',
] as const;
export type TaskName = (typeof TASK_NAMES)[number];

/**
 * A set of tasks with slots of its own: webhook deliveries (which wait on customers' servers) run in
 * one lane and everything else (builds, the sweep, monitoring, alert e-mail) in another, so no
 * number of slow endpoints can hold the slots the rest needs.
 */
export interface WorkerLane {
  readonly name: string;
  readonly tasks: Partial<Record<TaskName, TaskFunction>>;
  readonly concurrency: number;
}

/** What `admin jobs` prints. */
export interface QueueState {
  readonly runner: 'graphile-worker' | 'in-process';
  readonly waiting: number;
  readonly running: number;
  /** Jobs that failed at least once and are waiting for their next try. */
  readonly retrying: number;
  /** Jobs that used up their attempts. */
  readonly failed: number;
  readonly by_task: Record<string, number>;
  readonly last_errors: readonly { task: string; attempts: number; error: string }[];
}

/** Thrown by a fault hook: the job stops here as if its process had died. */
export class InjectedFault extends Error {}

/** Raises the named fault once, if a test asked for it. */
export function faultPoint(env: JobEnvironment, name: string): void {
  if (env.faults.delete(name)) throw new InjectedFault(`Injected fault "${name}": the job stopped here as if its process died.`);
}

/**
 * Test hook (JOB_TEST_PAUSE): a job's first attempt waits here, so a test can kill the process that
 * holds a long-running job; the retry on another instance (attempt 2) goes straight on.
 */
export async function pausePoint(env: JobEnvironment, run: JobRun, name: string): Promise<void> {
  const ms = env.config.testPauses.get(name);
  if (ms && run.attempt === 1) await new Promise((resolve) => setTimeout(resolve, ms));
}
