import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { recordRequest } from '../observability/metrics.js';
import { log, type LogIds } from '../observability/log.js';
import { clientAddressOf } from './client-address.js';
import { DATABASE_UNAVAILABLE_DETAIL, isDatabaseUnreachable } from './database-unreachable.js';
import { badTextIn } from './refuse-bad-text.js';
import { answerTextOf } from '../operations/json-response.js';
import { compressible, gzipAnswer } from './compress-answer.js';
import { TOO_DEEP_DETAIL } from '../operations/parse-json-bounded.js';

export interface RequestInfo {
  readonly requestId: string;
  readonly clientAddress: string;
  /**
   * Aborted when the connection closes (absent for in-process callers). It travels here rather than
   * on the Request: a Request made with a signal follows it through a WeakRef and a
   * FinalizationRegistry, which the young-generation GC never clears, so each request's objects
   * were promoted to the old generation (about 2 MB per scavenge on the 500-domain dashboard).
   */
  readonly signal?: AbortSignal;
  /** Our own id and the caller's, for log lines written for this request (absent for in-process callers). */
  readonly logIds?: LogIds;
  /** The request's URL as serve-http parsed it, so the app and the doors need not parse it again (absent for in-process callers). */
  readonly url?: URL;
}

export type FetchHandler = (request: Request, info: RequestInfo) => Promise<Response>;

/** A caller's own X-Request-Id is kept only in this form: nothing a log line or a header could trip on. */
export const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** On every answer of both listeners: a browser never guesses a JSON answer's type as HTML or script. */
const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

/** The request signal's reason once the connection closes, the answer sent or not. */
const CONNECTION_CLOSED = new DOMException('The connection closed.', 'AbortError');

/**
 * Node's HTTP server in front of a web-standard handler: the only place node:http appears. Bodies
 * over the limit are refused with 413 before they are read whole; a NUL, a lone surrogate or bytes
 * that are not UTF-8 in the path, query or body with 400 (refuse-bad-text.ts: the one place for every
 * door); an exception becomes a JSON 500 carrying the request id. The Request's signal aborts when
 * the connection closes, so a caller who hangs up stops the request's checks.
 */
export interface ServeHttpOptions {
  readonly maxBodyBytes: number;
  /**
   * A larger cap for a few REST paths, by "METHOD /path" (the operation table's maxBodyBytes: the
   * report upload), with the sentence its 413 says. Every other request keeps maxBodyBytes.
   */
  readonly bodyLimitsByRoute?: ReadonlyMap<string, { readonly bytes: number; readonly detail: string }>;
  readonly name: string;
  readonly trustedProxies?: ReadonlySet<string>;
  /** LOG_REQUESTS (settings.log.requests): one log line per request; on when absent. */
  readonly logRequests?: boolean;
  /** Headers on the answers this layer writes itself (the public listener's CORS). */
  readonly ownAnswerHeaders?: Readonly<Record<string, string>>;
  /**
   * Paths answered by a Node handler of their own, given the request unread (the OAuth
   * authorization server, oidc-provider, is a Koa app: server/oauth-routes.ts). null: the fetch handler.
   */
  readonly nodeRoute?: (req: IncomingMessage) => NodeHandler | null;
}

/** A handler on Node's own request and response, for the paths `nodeRoute` names. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Each listener's handlers still running, answered or not (settleInFlight). */
const inFlightOf = new WeakMap<Server, Set<Promise<void>>>();

/**
 * Resolves once every handler running on the server has finished, or after `capMs`. server.close()
 * waits for open connections only: a caller who hung up leaves no connection, but its handler may
 * still be writing (a placement past its charge), and the database must outlive it.
 */
export async function settleInFlight(server: Server, capMs: number): Promise<void> {
  const running = inFlightOf.get(server);
  if (!running || running.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...running]), new Promise<void>((resolve) => (timer = setTimeout(resolve, capMs)))]);
  clearTimeout(timer);
}

export function serveHttp(handler: FetchHandler, options: ServeHttpOptions): Server {
  const trusted = options.trustedProxies ?? new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    // Our own id is made for every request and is what the logs file it under; a well-formed id of
    // the caller's (a gateway's trace id) is what the answer carries, and is logged beside ours.
    const incoming = req.headers['x-request-id'];
    const clientRequestId = typeof incoming === 'string' && CLIENT_REQUEST_ID.test(incoming) ? incoming : undefined;
    const ownId = randomUUID();
    const requestId = clientRequestId ?? ownId;
    const logIds: LogIds = clientRequestId ? { request_id: ownId, client_request_id: clientRequestId } : { request_id: ownId };
    const started = performance.now();
    const direct = options.nodeRoute?.(req) ?? null;
    if (direct) {
      res.setHeader('x-request-id', requestId);
      res.setHeader('x-content-type-options', 'nosniff');
    }
    const running = (direct ? direct(req, res) : handle(req, res, handler, options, requestId, logIds, trusted))
      .catch((error: unknown) => {
        if (!res.headersSent && isDatabaseUnreachable(error)) {
          // Outside GraphQL (card page, webhooks): the same 503 as mask-error.ts gives inside it.
          return sendJson(res, 503, { detail: DATABASE_UNAVAILABLE_DETAIL, code: 'database_unavailable', retry_after: 5, request_id: requestId }, requestId, {
            ...options.ownAnswerHeaders,
            'retry-after': '5',
          });
        }
        log('error', 'request failed', { ...logIds, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        if (!res.headersSent)
          sendJson(
            res,
            500,
            { detail: 'Something went wrong on our side; quote the request id to the operator.', code: 'internal_error', request_id: requestId },
            requestId,
            { ...options.ownAnswerHeaders },
          );
        else res.destroy();
      })
      .finally(() => {
        recordRequest(options.name, req.method ?? 'GET', req.url ?? '/', res.statusCode, (performance.now() - started) / 1000);
        if (options.logRequests !== false) {
          log('info', 'request', {
            ...logIds,
            listener: options.name,
            method: req.method,
            path: (req.url ?? '').split('?')[0],
            status: res.statusCode,
            ms: Math.round(performance.now() - started),
          });
        }
      });
    inFlight.add(running);
    void running.finally(() => inFlight.delete(running));
  });
  inFlightOf.set(server, inFlight);
  server.keepAliveTimeout = 5000;
  // Node refuses a request it cannot parse (a URL or headers over its 16 KB limit, a malformed request
  // line) before any handler runs, with a bare status line. Answer those in JSON with a detail too.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    // No request was read, so no caller's id either: ours, in the body, the header and the log.
    const requestId = randomUUID();
    log('info', 'request refused unparsed', { request_id: requestId, listener: options.name, status, reason: error.code ?? 'parse_error' });
    const own = Object.entries(options.ownAnswerHeaders ?? {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const body = JSON.stringify({
      detail: tooLarge
        ? 'The URL or headers are too large (over 16 KB). Send long lists as a JSON body with POST to the same path, e.g. {"emails": ["a@example.com", "b@example.com"]}.'
        : 'The request could not be parsed as HTTP/1.1; check the request line and headers.',
      code: tooLarge ? 'request_too_large' : 'bad_request',
      request_id: requestId,
    });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n` +
        `X-Content-Type-Options: nosniff\r\n${own}Connection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  handler: FetchHandler,
  options: ServeHttpOptions,
  requestId: string,
  logIds: LogIds,
  trusted: ReadonlySet<string>,
): Promise<void> {
  const method = req.method ?? 'GET';
  const routeLimit = options.bodyLimitsByRoute?.size ? options.bodyLimitsByRoute.get(`${method} ${(req.url ?? '/').split('?')[0]}`) : undefined;
  const maxBodyBytes = routeLimit?.bytes ?? options.maxBodyBytes;
  // The request's signal: aborted when the connection closes before the answer is written whole. A
  // caller who hangs up thus stops the request's DNS questions and fetches (the checks' request scope
  // follows it). After a finished answer nothing is left to stop, so the signal is left alone: an
  // abort dispatches an event to every listener still attached, a cost on every request for nothing.
  const closed = new AbortController();
  // One reason for every request: abort() without one builds a DOMException (and its stack) each time.
  res.once('close', () => {
    if (!res.writableFinished) closed.abort(CONNECTION_CLOSED);
  });
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBodyBytes) return tooLarge(res, maxBodyBytes, requestId, options.ownAnswerHeaders, routeLimit?.detail);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      // Buffers, since no encoding is set on the request; a string would be one only if someone set one.
      const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      size += piece.length;
      if (size > maxBodyBytes) return tooLarge(res, maxBodyBytes, requestId, options.ownAnswerHeaders, routeLimit?.detail);
      chunks.push(piece);
    }
    body = Buffer.concat(chunks);
  }
  // Pairs, not a Headers: the Request copies its init's headers into its own either way, and a
  // Headers made here first was each header validated twice.
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.push([name, v]);
    else if (value !== undefined) headers.push([name, value]);
  }
  const host = req.headers.host && /^[A-Za-z0-9.:[\]-]+$/.test(req.headers.host) ? req.headers.host : 'localhost';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${host}`);
  } catch {
    return sendJson(res, 400, { detail: 'The request path is not a valid URL path.', code: 'bad_path', request_id: requestId }, requestId, {
      ...options.ownAnswerHeaders,
    });
  }
  const bad = badTextIn(req.url ?? '/', body, req.headers['content-type']);
  // Too deep a JSON text has the code each door gives it (json_too_deep); other bad text is invalid_text.
  const code = bad === TOO_DEEP_DETAIL ? 'json_too_deep' : 'invalid_text';
  if (bad) return sendJson(res, 400, { detail: bad, code, request_id: requestId }, requestId, { ...options.ownAnswerHeaders });
  const request = new Request(url, { method, headers, ...(body && body.length ? { body: new Uint8Array(body) } : {}) });
  const forwardedFor = req.headers['x-forwarded-for'];
  const clientAddress = clientAddressOf(req.socket.remoteAddress ?? 'unknown', Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor, trusted);
  const response = await handler(request, { requestId, clientAddress, signal: closed.signal, url, logIds });
  const outHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  outHeaders['x-request-id'] = requestId;
  outHeaders['x-content-type-options'] = NOSNIFF['x-content-type-options'];
  if (method === 'HEAD' || response.status === 204 || response.status === 304) {
    res.writeHead(response.status, outHeaders);
    return void res.end();
  }
  // A JSON answer's text goes to the socket as it is (asked first: its body stream is made only if
  // read); other bodies (pages, streams) are read as bytes.
  const text = answerTextOf(response);
  let payload: string | Buffer | undefined = text;
  if (payload === undefined && response.body) payload = Buffer.from(await response.arrayBuffer());
  if (payload === undefined) {
    res.writeHead(response.status, outHeaders);
    return void res.end();
  }
  // Every text answer over 1 KB goes gzip-compressed to a caller that takes it (GraphiQL's page, the
  // dashboard, /docs); the portal's assets come compressed already.
  if (compressible(response.headers)) {
    const vary = outHeaders.vary;
    outHeaders.vary = vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding';
    const packed = await gzipAnswer(payload, response.headers, req.headers['accept-encoding']);
    if (packed) {
      outHeaders['content-encoding'] = 'gzip';
      delete outHeaders['content-length'];
      payload = packed;
    }
  }
  res.writeHead(response.status, outHeaders);
  res.end(payload);
}

function tooLarge(res: ServerResponse, maxBodyBytes: number, requestId: string, own: Readonly<Record<string, string>> = {}, routeDetail?: string): void {
  // The connection closes after the answer, so what is left of the body is never read.
  sendJson(
    res,
    413,
    {
      detail: routeDetail
        ? `The body is larger than ${maxBodyBytes} bytes. ${routeDetail}`
        : `The body is larger than ${maxBodyBytes} bytes; send a smaller request (split large orders or lists).`,
      code: 'body_too_large',
      request_id: requestId,
    },
    requestId,
    { ...own, connection: 'close' },
  );
}

function sendJson(res: ServerResponse, status: number, body: unknown, requestId: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...NOSNIFF, ...headers });
  res.end(JSON.stringify(body));
}
