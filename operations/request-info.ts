import type { LogIds } from '../observability/log-ids.js';

/** What a listener tells a door (REST or MCP) about the request beside the Request itself. */
export interface RequestInfo {
  readonly requestId: string;
  readonly clientAddress: string;
  /** Aborted when the caller hangs up (serve-http.ts); without it, the Request's own signal. */
  readonly signal?: AbortSignal;
  /** Our own id and the caller's for log lines (serve-http.ts). */
  readonly logIds?: LogIds;
  /** The request's URL, parsed once by the listener (serve-http.ts); without it, parsed from the Request. */
  readonly url?: URL;
}
