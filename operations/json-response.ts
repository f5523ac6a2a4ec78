import type { ApiError } from './api-error.js';
import { refusalRateLimitHeaders } from '../resolvers/limits/door-policy.js';

/**
 * A JSON answer that holds its text and makes the body stream only when someone reads it. The HTTP
 * adapter writes the text to the socket as it is (answerTextOf); an in-process caller reads the body
 * as from any Response. Building the stream up front (what `new Response(text)` does) cost the
 * 500-domain dashboard a web stream per request, kept through a native handle past young-generation
 * GCs, and with it the 100 KB text: promoted garbage on every request, though no one read it.
 */
class JsonAnswer extends Response {
  readonly #text: string;
  #read: Response | undefined;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  /** The same answer as an ordinary Response, made on first read. */
  #full(): Response {
    return (this.#read ??= new Response(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers }));
  }

  /** The text, while no one has read the body. */
  unreadText(): string | undefined {
    return this.#read?.bodyUsed ? undefined : this.#text;
  }

  override get body(): Response['body'] {
    return this.#full().body;
  }
  override get bodyUsed(): boolean {
    return this.#read?.bodyUsed ?? false;
  }
  override text(): ReturnType<Response['text']> {
    return this.#full().text();
  }
  override json(): ReturnType<Response['json']> {
    return this.#full().json();
  }
  override arrayBuffer(): ReturnType<Response['arrayBuffer']> {
    return this.#full().arrayBuffer();
  }
  override blob(): ReturnType<Response['blob']> {
    return this.#full().blob();
  }
  override formData(): ReturnType<Response['formData']> {
    return this.#full().formData();
  }
  override clone(): Response {
    return this.#full().clone();
  }
  /** bytes() too (Node 22's undici has it), so no reader gets an empty body. */
  override bytes(): ReturnType<Response['bytes']> {
    return this.#full().bytes();
  }
}

/** The headers every JSON answer starts from. */
export const JSON_ANSWER_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** A JSON answer; every one carries the request id so a person can quote it to the operator. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new JsonAnswer(JSON.stringify(body), { status, headers: { ...JSON_ANSWER_HEADERS, ...headers } });
}

/** A JSON answer of text already made (a GraphQL result stringified), with exactly these headers. */
export function jsonTextResponse(status: number, text: string, headers: Record<string, string>): Response {
  return new JsonAnswer(text, { status, headers });
}

/** The text a JSON answer was made with, while its body is still unread; undefined for any other Response. */
export function answerTextOf(response: Response): string | undefined {
  return response instanceof JsonAnswer ? response.unreadText() : undefined;
}

/** The REST body of a refusal: `detail` first, then the code and any extras (problems, retry_after, ...). */
export function errorResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}): Response {
  const extra: Record<string, string> = { ...headers };
  const retryAfter = error.extras.retry_after;
  if (typeof retryAfter === 'number') extra['Retry-After'] = String(retryAfter);
  // A 429 says where the refused allowance stands, over any count made earlier in the request.
  Object.assign(extra, refusalRateLimitHeaders(error));
  return jsonResponse(error.status, { detail: error.detail, code: error.code, ...error.extras, request_id: requestId }, extra);
}
