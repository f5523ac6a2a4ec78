import { AsyncLocalStorage } from 'node:async_hooks';

/** The request being served, so every log line carries its request id without threading it through. */
export const requestScope = new AsyncLocalStorage<{ readonly requestId: string; readonly clientRequestId?: string }>();

/**
 * One JSON object per line on stdout. Never log keys, Authorization headers or bodies: callers pass
 * only the fields they mean to publish.
 */
export function log(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL === 'silent') return;
  const scope = requestScope.getStore();
  // Our own id always; the caller's beside it, never instead of it.
  const ids = scope ? { request_id: scope.requestId, ...(scope.clientRequestId ? { client_request_id: scope.clientRequestId } : {}) } : {};
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...ids, ...fields });
  (level === 'error' ? process.stderr : process.stdout).write(line + '\n');
}
