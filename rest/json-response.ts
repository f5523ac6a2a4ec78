import type { ApiError } from '../resolvers/api-error.js';
import { refusalRateLimitHeaders } from '../resolvers/limits/door-policy.js';

/** A JSON answer; every one carries the request id so a person can quote it to the operator. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
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
