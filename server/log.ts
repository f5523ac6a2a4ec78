import { AsyncLocalStorage } from 'node:async_hooks';

/** The request being served, so every log line carries its request id without threading it through. */
export const requestScope = new AsyncLocalStorage<{ readonly requestId: string; readonly clientRequestId?: string }>();

/** The job being run (jobs/*), so every log line of a task carries its job id and task name. */
export const jobScope = new AsyncLocalStorage<{ readonly jobId: string; readonly task: string }>();

/**
 * Lines for stdout, written together at most every FLUSH_AFTER_MS rather than one write each: stdout
 * is a pipe or a file, where Node writes synchronously, and a line per request was a system call per
 * request (and a wake-up of whatever reads the log). What is pending is written as the process
 * exits, so a stop or a crash that Node sees loses nothing (SIGKILL loses at most the last
 * FLUSH_AFTER_MS); errors go to stderr at once.
 */
let pendingLines = '';
let flushScheduled = false;
/** Past this many characters the pending lines are written at once rather than when the timer fires. */
const FLUSH_AT_CHARS = 64 * 1024;
/** How long a line may wait for others to share its write. */
export const FLUSH_AFTER_MS = 25;

/** Writes the pending log lines now (also called as the process exits, and by tests that read stdout). */
export function flushLog(): void {
  flushScheduled = false;
  if (pendingLines === '') return;
  const text = pendingLines;
  pendingLines = '';
  process.stdout.write(text);
}

process.on('exit', flushLog);

function writeLine(line: string): void {
  pendingLines += line;
  if (pendingLines.length >= FLUSH_AT_CHARS) return flushLog();
  if (!flushScheduled) {
    flushScheduled = true;
    setTimeout(flushLog, FLUSH_AFTER_MS).unref();
  }
}

/**
 * One JSON object per line on stdout. Never log keys, Authorization headers or bodies: callers pass
 * only the fields they mean to publish.
 */
export function log(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL === 'silent') return;
  const scope = requestScope.getStore();
  const job = jobScope.getStore();
  // Our own id always; the caller's beside it, never instead of it.
  const ids = scope ? { request_id: scope.requestId, ...(scope.clientRequestId ? { client_request_id: scope.clientRequestId } : {}) } : {};
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...ids, ...(job ? { job_id: job.jobId, task: job.task } : {}), ...fields });
  if (level === 'error') process.stderr.write(line + '\n');
  else writeLine(line + '\n');
}
