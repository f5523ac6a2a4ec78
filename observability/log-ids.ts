/**
 * The ids a request's log lines carry: our own id always, and a caller's well-formed X-Request-Id
 * beside it, never instead of it. serve-http.ts makes them and hands them to the doors
 * (RequestInfo.logIds, Context.logIds); code that logs for a request passes them in its fields.
 *
 * They travel by hand rather than through an AsyncLocalStorage: on Node 20 a store turns on a
 * promise hook for every promise the process makes, about 50 µs of CPU per 500-domain dashboard
 * request (3-4% of it) to carry two strings to the few lines that need them.
 */
export interface LogIds {
  readonly request_id: string;
  readonly client_request_id?: string;
}
