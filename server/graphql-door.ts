import type { Services } from '../resolvers/context.js';
import { createContext } from '../resolvers/context.js';
import type { Yoga } from './create-yoga.js';
import type { RequestInfo } from './serve-http.js';
import { ApiError } from '../resolvers/api-error.js';
import { consumeForKey } from '../resolvers/limits/count-caller.js';
import { errorResponse } from '../rest/json-response.js';

/**
 * /graphql for our own frontends: the same schema, the same Context, the same limits. A request
 * counts once against an allowance: the key's reading allowance when it carries a valid key, else
 * the client address's public allowance (the checks page asks for several checks in one request).
 * GraphiQL's page (a GET without a query) is not counted.
 */
export async function handleGraphql(yoga: Yoga, services: Services, request: Request, info: RequestInfo): Promise<Response> {
  const appContext = createContext(services, {
    authorization: request.headers.get('authorization'),
    requestId: info.requestId,
    clientAddress: info.clientAddress,
    signal: request.signal,
  });
  let remaining: number | null = null;
  if (request.method === 'POST' || new URL(request.url).searchParams.has('query')) {
    try {
      const caller = await appContext.caller();
      remaining = caller
        ? (await consumeForKey(services.rateLimits, 'read', caller)).remaining
        : (await services.rateLimits.consume('public', info.clientAddress)).remaining;
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error, info.requestId);
      throw error;
    }
  }
  const response = await requestErrorsAre400(await yoga.fetch(request, { appContext }));
  if (remaining !== null) response.headers.set('X-RateLimit-Remaining', String(remaining));
  return response;
}

/**
 * A request refused before execution (syntax, validation, armor's limits) has errors and no `data`.
 * GraphQL over HTTP answers those 400 for application/graphql-response+json but 200 for plain JSON;
 * we answer 400 for both, so any client sees the refusal.
 */
async function requestErrorsAre400(response: Response): Promise<Response> {
  if (response.status !== 200 || !response.headers.get('content-type')?.includes('json')) return response;
  const text = await response.text();
  let status = 200;
  try {
    const body = JSON.parse(text) as { data?: unknown; errors?: unknown[] };
    if (!('data' in body) && Array.isArray(body.errors) && body.errors.length > 0) status = 400;
  } catch { /* not a single JSON result (batched or streamed): leave it */ }
  return new Response(text, { status, headers: response.headers });
}
