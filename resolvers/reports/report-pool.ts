import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { log } from '../../observability/log.js';
import { recordReportTask } from '../../observability/metrics.js';
import type { ReadAnswer, ReportTask } from './report-worker.js';
import type { MessageScreen } from './screen-report-message.js';

/** The worker threads that unpack, parse and DKIM-verify reports (report-worker.ts), off the main thread. */
export interface ReportPool {
  screen(bytes: Uint8Array): Promise<MessageScreen>;
  read(task: Omit<Extract<ReportTask, { op: 'read' }>, 'op'>): Promise<ReadAnswer>;
  close(): Promise<void>;
}

export interface ReportPoolOptions {
  /** Worker threads (REPORTS_WORKERS): each holds at most one report's unpacking at a time. */
  readonly threads: number;
  /** Tasks that may wait for a thread (REPORTS_QUEUE); past it a task is refused with ReportPoolBusy at once. */
  readonly queue: number;
}

/** The queue is full: SMTP answers 451 (try later), REST 503 with Retry-After. */
export class ReportPoolBusy extends Error {
  constructor() {
    super('Every report worker is busy and the queue is full');
    this.name = 'ReportPoolBusy';
  }
}

/**
 * The worker file next to this one: report-worker.ts when this module runs as TypeScript (npm start
 * through tsx, vitest), report-worker.js in a transpiled copy (the tests' spawned servers). A worker
 * thread does not inherit vitest's transform, and tsx's hooks only when its flags are in execArgv,
 * so for the .ts file tsx's loader is added to the thread's flags when missing.
 */
function workerLaunch(): { filename: string; execArgv: string[] } {
  const typescript = import.meta.url.endsWith('.ts');
  const filename = new URL(typescript ? './report-worker.ts' : './report-worker.js', import.meta.url).href;
  if (!typescript) return { filename, execArgv: [...process.execArgv] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const hasTsx = process.execArgv.some((arg) => arg.includes('tsx'));
  return { filename, execArgv: hasTsx ? [...process.execArgv] : [...process.execArgv, '--import', tsx] };
}

function isQueueFull(error: unknown): boolean {
  return error instanceof Error && /queue is at limit|No task queue available/i.test(error.message);
}

export function createReportPool(options: ReportPoolOptions): ReportPool {
  const launch = workerLaunch();
  const pool = new Piscina<ReportTask, MessageScreen | ReadAnswer>({
    filename: launch.filename,
    execArgv: launch.execArgv,
    minThreads: 0,
    maxThreads: options.threads,
    maxQueue: options.queue,
    // An idle thread is given back after a minute: reports come in bursts, a few times a day.
    idleTimeout: 60_000,
  });
  // A thread that fails to start (or dies) is reported here; unheard, the event would end the process.
  pool.on('error', (error: Error) => log('error', 'report_worker_failed', { reason: error.message }));
  let closed = false;
  // Tasks of this pool running and waiting, for the report_tasks gauge (piscina runs them in order).
  let running = 0;
  let waiting = 0;
  const run = async (task: ReportTask): Promise<MessageScreen | ReadAnswer> => {
    if (closed) throw new ReportPoolBusy();
    let answer: Promise<MessageScreen | ReadAnswer>;
    try {
      answer = pool.run(task);
    } catch (error) {
      throw isQueueFull(error) ? new ReportPoolBusy() : error;
    }
    const state = running < options.threads ? 'running' : 'waiting';
    if (state === 'running') running++;
    else waiting++;
    recordReportTask(state, 1);
    try {
      return await answer;
    } catch (error) {
      throw isQueueFull(error) ? new ReportPoolBusy() : error;
    } finally {
      // A task that ends makes room for the first waiting one, which starts running.
      if (waiting > 0) {
        waiting--;
        recordReportTask('waiting', -1);
      } else {
        running--;
        recordReportTask('running', -1);
      }
    }
  };
  return {
    async screen(bytes) {
      const answer = await run({ op: 'screen', bytes });
      if (!('domains' in answer)) throw new Error('The report worker answered a screen with a read');
      return answer;
    },
    async read(task) {
      const answer = await run({ op: 'read', ...task });
      if (!('files' in answer)) throw new Error('The report worker answered a read with a screen');
      return answer;
    },
    async close() {
      closed = true;
      // Reports being read finish (the listeners are already shut); then the threads end.
      await pool.close();
    },
  };
}
