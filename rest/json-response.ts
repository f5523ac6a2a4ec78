import type { ApiError } from '../resolvers/api-error.js';
import { refusalRateLimitHeaders } from '../resolvers/limits/door-policy.js';

/**
 * The text of each JSON answer, kept beside its Response: the HTTP adapter writes it to the socket
 * as it is, instead of reading the Response's body stream back into bytes (for a 100 KB dashboard,
 * that read cost more than the rest of the adapter). An in-process caller reads the body as usual.
 */
const answerTexts = new WeakMap<Response, string>();

/** A JSON answer; every one carries the request id so a person can quote it to the operator. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
  answerTexts.set(response, text);
  return response;
}

/** The text a JSON answer was made with, while its body is still unread; undefined for any other Response. */
export function answerTextOf(response: Response): string | undefined {
  return response.bodyUsed ? undefined : answerTexts.get(response);
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
