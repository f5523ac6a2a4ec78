import type { Services } from '../resolvers/context.js';
import { createContext } from '../resolvers/context.js';
import type { Yoga } from './create-yoga.js';
import type { RequestInfo } from './serve-http.js';
import { ApiError } from '../resolvers/api-error.js';
import type { RateLimitClass, RateLimitOutcome } from '../resolvers/limits/rate-limits.js';
import { lookAtAllowance, principalOf, rateLimitHeaders, spendAllowance } from '../resolvers/limits/door-policy.js';
import { operationTable } from '../operations/operation-table.js';
import { errorResponse } from '../operations/json-response.js';
import { graphqlSpend, type GraphqlParams } from './graphql-spend.js';
import { sessionTokenOf } from '../resolvers/people/sessions.js';
import { jsonTooDeep, tooDeepError } from '../operations/parse-json-bounded.js';
import { accountCorsHeaders, CSRF_HEADER, isPortalOrigin } from './account-cors.js';

/**
 * The allowance class of a root field that is not what its operation type says: previewOrder is a
 * query that REST counts as a change. Read from the operation table, so the three doors agree.
 */
const FIELD_CLASS: ReadonlyMap<string, RateLimitClass> = new Map(
  operationTable.filter((row) => row.unwrap && row.rateLimit !== 'read' && row.rateLimit !== 'public').map((row) => [row.unwrap as string, row.rateLimit]),
);

/**
 * /graphql for our own frontends: the same schema, the same Context, the same door policy as REST
 * and MCP. Each operation counts against the caller's allowances (graphql-spend.ts): a valid key's
 * reading and changing allowances, else the client address's public allowance. GraphiQL's page (a
 * GET without a query) spends nothing, and is GraphiQL with its assets inline from @graphql-yoga/render-graphiql (no CDN).
 */
export async function handleGraphql(yoga: Yoga, services: Services, request: Request, info: RequestInfo): Promise<Response> {
  const cors = accountCorsHeaders(request, services.config.apiUrl);
  const response = await answerGraphql(yoga, services, request, info);
  // Ours replace yoga's own CORS, which reflects any origin with credentials.
  for (const name of [...response.headers.keys()]) if (name.startsWith('access-control-')) response.headers.delete(name);
  for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
  return response;
}

async function answerGraphql(yoga: Yoga, services: Services, request: Request, info: RequestInfo): Promise<Response> {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { 'content-length': '0' } });
  const authorization = request.headers.get('authorization');
  // Only without a key does the cookie count; then the request must show it was made by script on a
  // page allowed to set headers (a cross-site form cannot), as yoga's CSRF prevention asks.
  const sessionToken = authorization === null ? sessionTokenOf(request.headers.get('cookie')) : null;
  const url = new URL(request.url);
  const origin = request.headers.get('origin');
  if (sessionToken && origin !== null && !isPortalOrigin(origin, request, services.config.apiUrl)) {
    // A browser sends the cookie from a sibling subdomain too (same site): only the portal's pages sign in by it.
    return errorResponse(
      new ApiError(
        403,
        'cross_site_request',
        `A page at ${origin.slice(0, 100)} cannot call /graphql as the person signed in to the portal; call it with an API key ("Authorization: Bearer <key>") instead.`,
      ),
      info.requestId,
    );
  }
  const runsOperation = request.method === 'POST' || url.searchParams.has('query');
  // Variables nested thousands deep would overflow input coercion's recursion: refused in our words first.
  if (request.method === 'POST' && jsonTooDeep(await request.clone().text())) return errorResponse(tooDeepError(), info.requestId);
  if (sessionToken && runsOperation && !request.headers.has(CSRF_HEADER)) {
    return errorResponse(
      new ApiError(
        403,
        'csrf_header_missing',
        `A request signed in by the session cookie must carry the "${CSRF_HEADER}" header (any value); send it with every GraphQL request from the portal, or use an API key instead.`,
      ),
      info.requestId,
    );
  }
  const appContext = createContext(services, {
    authorization,
    sessionToken,
    requestId: info.requestId,
    ...(info.logIds ? { logIds: info.logIds } : {}),
    clientAddress: info.clientAddress,
    signal: info.signal ?? request.signal,
  });
  let outcome: RateLimitOutcome | null;
  try {
    const principal = await principalOf(appContext);
    outcome = runsOperation
      ? await spendAllowance(services.rateLimits, principal, graphqlSpend(await paramsOf(request, url), FIELD_CLASS))
      : await lookAtAllowance(services.rateLimits, principal);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error, info.requestId);
    throw error;
  }
  // Yoga sees the connection's signal on its Request, as before serve-http stopped putting it there.
  const forYoga = info.signal ? new Request(request, { signal: info.signal }) : request;
  const response = await requestErrorsAre400(await yoga.fetch(forYoga, { appContext }));
  for (const [name, value] of Object.entries(rateLimitHeaders(outcome))) response.headers.set(name, value);
  return response;
}

/** The operations a request asks for, read without consuming the body yoga reads next. */
async function paramsOf(request: Request, url: URL): Promise<GraphqlParams[]> {
  if (request.method !== 'POST') return [{ query: url.searchParams.get('query'), operationName: url.searchParams.get('operationName') }];
  const text = await request.clone().text();
  if ((request.headers.get('content-type') ?? '').includes('application/graphql')) return [{ query: text }];
  try {
    const body = JSON.parse(text) as unknown;
    const list = Array.isArray(body) ? body : [body];
    return list.map((one) => (one && typeof one === 'object' ? (one as GraphqlParams) : {}));
  } catch {
    return [{}];
  }
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
  } catch {
    /* not a single JSON result (batched or streamed): leave it */
  }
  return new Response(text, { status, headers: response.headers });
}
