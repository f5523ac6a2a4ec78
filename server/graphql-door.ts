import type { Services } from '../resolvers/context.js';
import { createContext } from '../resolvers/context.js';
import type { Yoga } from './create-yoga.js';
import type { RequestInfo } from './serve-http.js';

/** /graphql for our own frontends: the same schema, the same Context, the same limits. */
export function handleGraphql(yoga: Yoga, services: Services, request: Request, info: RequestInfo): Promise<Response> {
  const appContext = createContext(services, {
    authorization: request.headers.get('authorization'),
    requestId: info.requestId,
    clientAddress: info.clientAddress,
  });
  return Promise.resolve(yoga.fetch(request, { appContext })).then(requestErrorsAre400);
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
