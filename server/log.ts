import { AsyncLocalStorage } from 'node:async_hooks';

/** The request being served, so every log line carries its request id without threading it through. */
export const requestScope = new AsyncLocalStorage<{ readonly requestId: string }>();

/** The job being run (jobs/*), so every log line of a task carries its job id and task name. */
export const jobScope = new AsyncLocalStorage<{ readonly jobId: string; readonly task: string }>();

/**
 * One JSON object per line on stdout. Never log keys, Authorization headers or bodies: callers pass
 * only the fields they mean to publish.
 */
export function log(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL === 'silent') return;
  const requestId = requestScope.getStore()?.requestId;
  const job = jobScope.getStore();
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...(requestId ? { request_id: requestId } : {}), ...(job ? { job_id: job.jobId, task: job.task } : {}), ...fields });
  (level === 'error' ? process.stderr : process.stdout).write(line + '\n');
}
