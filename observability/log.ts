import type { LogIds } from './log-ids.js';

export type { LogIds };

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

// One listener per process, calling this module's flushLog: when the module is evaluated again in
// the same process (the test runner does so for each test file), the newest evaluation's lines are
// flushed and no listener is added per evaluation.
const FLUSH_AT_EXIT = Symbol.for('svc.log.flushAtExit');
if (typeof Reflect.get(process, FLUSH_AT_EXIT) !== 'function')
  process.on('exit', () => {
    const flush: unknown = Reflect.get(process, FLUSH_AT_EXIT);
    if (typeof flush === 'function') flush();
  });
Reflect.set(process, FLUSH_AT_EXIT, flushLog);

let silent = false;

/** LOG_LEVEL=silent (settings.log, read at start by server/start-service.ts) turns the log off for this process. */
export function configureLog(settings: { readonly silent: boolean }): void {
  silent = settings.silent;
}

function writeLine(line: string): void {
  pendingLines += line;
  if (pendingLines.length >= FLUSH_AT_CHARS) return flushLog();
  if (!flushScheduled) {
    flushScheduled = true;
    setTimeout(flushLog, FLUSH_AFTER_MS).unref();
  }
}

/**
 * One JSON object per line on stdout: time, level, message, then the fields (a request's LogIds, a
 * job's job_id and task, ...). Never log keys, Authorization headers or bodies: callers pass only
 * the fields they mean to publish.
 */
export function log(level: 'info' | 'warn' | 'error', message: string, fields: Readonly<Record<string, unknown>> = {}): void {
  if (silent) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  if (level === 'error') process.stderr.write(line + '\n');
  else writeLine(line + '\n');
}
