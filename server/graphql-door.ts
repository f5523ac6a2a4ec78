import type { Services } from '../resolvers/context.js';
import { createContext } from '../resolvers/context.js';
import type { GraphQLParams } from 'graphql-yoga';
import type { Yoga } from './create-yoga.js';
import type { RequestInfo } from './serve-http.js';
import { graphqlAnswerOf } from './graphql-error-words.js';
import type { RateLimitClass, RateLimitOutcome } from '../resolvers/limits/rate-limits.js';
import { rateLimitHeaders } from '../resolvers/limits/door-policy.js';
import { admitGraphqlRequest } from './admit-caller.js';
import { operationTable } from '../operations/operation-table.js';
import { errorResponse } from '../operations/json-response.js';
import { ApiError } from '../operations/api-error.js';
import { graphqlSpend, type GraphqlParams } from './graphql-spend.js';
import { jsonTooDeep, tooDeepError } from '../operations/parse-json-bounded.js';
import { accountCorsHeaders } from './account-cors.js';
import { cookieSessionOf, crossSiteSessionRefusal, missingCsrfHeaderRefusal, runsOperation } from './session-csrf.js';
import type { Context } from '../resolvers/context.js';

/**
 * The allowance class of a root field that is not what its operation type says: previewOrder is a
 * query that REST counts as a change. Read from the operation table, so the three doors agree.
 */
const FIELD_CLASS: ReadonlyMap<string, RateLimitClass> = new Map(
  operationTable.flatMap((row): [string, RateLimitClass][] =>
    row.unwrap && row.rateLimit !== 'read' && row.rateLimit !== 'public' ? [[row.unwrap, row.rateLimit]] : [],
  ),
);

/**
 * /graphql for our own frontends: the same schema, the same Context, the same door policy as REST
 * and MCP. Each operation counts against the caller's allowances (graphql-spend.ts): a valid key's
 * reading and changing allowances, else the client address's public allowance. GraphiQL's page (a
 * GET without a query) spends nothing, and is GraphiQL with its assets inline from @graphql-yoga/render-graphiql (no CDN).
 *
 * Every request takes one path, yoga's HTTP handling (the envelop pipeline: caches, armor, our rules,
 * masking, graphql-jit). The body is read once, here, for the allowance; the common request, one
 * operation POSTed as JSON and answered as JSON, hands yoga the parameters read from it, and its
 * answer is written from the execution result without a second JSON parse (graphql-http-plugin.ts).
 * Everything else (GET, GraphiQL, batches, other content types, odd parameters, streamed answers)
 * is parsed by yoga from the body given back; the two answer alike (test/server/graphql-in-process.test.ts).
 */
export async function handleGraphql(
  yoga: Yoga,
  services: Services,
  request: Request,
  info: RequestInfo,
  options: { readonly readByDoor?: boolean } = {},
): Promise<Response> {
  const cors = accountCorsHeaders(request, services.config.apiUrl);
  const response = await answerGraphql(yoga, services, request, info, options.readByDoor !== false);
  // Ours replace yoga's own CORS, which reflects any origin with credentials.
  for (const name of [...response.headers.keys()]) if (name.startsWith('access-control-')) response.headers.delete(name);
  for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
  return response;
}

async function answerGraphql(yoga: Yoga, services: Services, request: Request, info: RequestInfo, readByDoor: boolean): Promise<Response> {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { 'content-length': '0' } });
  const authorization = request.headers.get('authorization');
  // Only without a key does the cookie count; then the request must come from the portal's own pages
  // and show it was made by script allowed to set headers (session-csrf.ts: yoga's CSRF prevention,
  // and our stricter rules answered here, before anything is spent).
  const sessionToken = cookieSessionOf(request);
  const url = info.url ?? new URL(request.url);
  const crossSite = sessionToken ? crossSiteSessionRefusal(request, services.config.apiUrl) : null;
  if (crossSite) return errorResponse(crossSite, info.requestId);
  const runs = runsOperation(request, url);
  // The body, read once: the bytes go on to yoga when it answers, the text to everything else.
  const bytes = request.method === 'POST' ? await request.arrayBuffer() : null;
  const text = bytes ? UTF8.decode(bytes) : null;
  // Variables nested thousands deep would overflow input coercion's recursion: refused in our words first.
  if (text !== null && jsonTooDeep(text)) return errorResponse(tooDeepError(), info.requestId);
  const noHeader = sessionToken && runs ? missingCsrfHeaderRefusal(request) : null;
  if (noHeader) return errorResponse(noHeader, info.requestId);
  const appContext = createContext(services, {
    authorization,
    sessionToken,
    requestId: info.requestId,
    ...(info.logIds ? { logIds: info.logIds } : {}),
    clientAddress: info.clientAddress,
    signal: info.signal ?? request.signal,
  });
  // One operation as JSON, answered as JSON: its parameters as the door read them. Null: yoga parses the body.
  const single = readByDoor && text !== null ? singleJsonOperation(request, text) : null;
  let outcome: RateLimitOutcome | null;
  try {
    // The door policy (admit-caller.ts): the caller (key, portal session or address) and its spend, once.
    outcome = await admitGraphqlRequest(appContext, runs ? graphqlSpend(single ? [single.params] : paramsOf(request, url, text), FIELD_CLASS) : null);
  } catch (error) {
    const answer = graphqlAnswerOf(error);
    if (answer) return errorResponse(answer, info.requestId);
    throw error;
  }
  const response = await answerThroughYoga(yoga, request, single ? null : bytes, info, appContext, single);
  for (const [name, value] of Object.entries(rateLimitHeaders(outcome))) response.headers.set(name, value);
  return response;
}

const UTF8 = new TextDecoder();

/**
 * The request through yoga's HTTP handling, the one path every /graphql request takes: with the
 * parameters of its one JSON operation as the door read them (graphql-http-plugin.ts), or else its
 * body (read by the door) given back as it came.
 */
async function answerThroughYoga(
  yoga: Yoga,
  request: Request,
  bytes: ArrayBuffer | null,
  info: RequestInfo,
  appContext: Context,
  single: SingleOperation | null,
): Promise<Response> {
  if (single) {
    // The body is read: yoga is handed the request without it (its body limit would pipe the spent stream).
    const bodiless = new Request(request.url, { method: request.method, headers: request.headers });
    return withDetail(await yoga.fetch(bodiless, { appContext, parsedParams: single.params, regularMediaType: single.mediaType }), info.requestId);
  }
  // Yoga sees the connection's signal on its Request, as before serve-http stopped putting it there.
  const signal = info.signal ?? request.signal;
  const forYoga =
    bytes === null
      ? info.signal
        ? new Request(request, { signal: info.signal })
        : request
      : new Request(request.url, { method: request.method, headers: request.headers, body: bytes, signal });
  return withDetail(await yoga.fetch(forYoga, { appContext, regularMediaType: regularMediaType(request.headers.get('accept')) }), info.requestId);
}

/**
 * Yoga refuses a body it cannot read (text/plain, say) with an empty 415, and an Accept it cannot
 * answer with an empty 406; ours say what to send instead, as every error body does.
 */
function withDetail(answer: Response, requestId: string): Response {
  if (answer.status === 415)
    return errorResponse(
      new ApiError(
        415,
        'unsupported_media_type',
        'Send the GraphQL request as JSON with "Content-Type: application/json" ({"query": ..., "variables": ...}), or as a GET with ?query=.',
      ),
      requestId,
    );
  if (answer.status === 406)
    return errorResponse(
      new ApiError(
        406,
        'not_acceptable',
        'Ask for the answer as JSON: send "Accept: application/json" or "Accept: application/graphql-response+json", or no Accept header.',
      ),
      requestId,
    );
  return answer;
}

/** One GraphQL operation of a JSON body, and the media type its answer is sent as. */
interface SingleOperation {
  readonly params: GraphQLParams;
  readonly mediaType: string;
}

/** The parameters a GraphQL request may carry (yoga refuses any other that is not null). */
const PARAM_NAMES: ReadonlySet<string> = new Set(['query', 'variables', 'operationName', 'extensions']);
/** Yoga's own body limit (serve-http's is lower): a request declaring more is yoga's to refuse. */
const YOGA_BODY_LIMIT = 25_000_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The request's one operation when yoga would read it as such and answer it as plain JSON: a POST of
 * application/json (or application/graphql+json) whose body is one object of well-formed parameters,
 * from a caller accepting application/json or application/graphql-response+json. Null for anything
 * else (a batch, another content type, a parameter yoga refuses, a stream asked for), which yoga
 * answers in its own words.
 */
function singleJsonOperation(request: Request, text: string): SingleOperation | null {
  const type = (request.headers.get('content-type') ?? '').split(',')[0] ?? '';
  if (!isContentType(type, 'application/json') && !isContentType(type, 'application/graphql+json')) return null;
  const length = request.headers.get('content-length');
  if (length !== null && (!/^\d+$/.test(length) || Number(length) > YOGA_BODY_LIMIT)) return null;
  const mediaType = regularMediaType(request.headers.get('accept'));
  if (mediaType === null) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(body)) return null;
  for (const [name, value] of Object.entries(body)) if (value !== null && value !== undefined && !PARAM_NAMES.has(name)) return null;
  const { query, variables, operationName, extensions } = body;
  if (typeof query !== 'string') return null;
  if (variables !== null && variables !== undefined && !isRecord(variables)) return null;
  if (extensions !== null && extensions !== undefined && !isRecord(extensions)) return null;
  if (operationName !== null && operationName !== undefined && typeof operationName !== 'string') return null;
  const params: GraphQLParams = { query };
  if (isRecord(variables)) params.variables = variables;
  if (typeof operationName === 'string') params.operationName = operationName;
  if (isRecord(extensions)) params.extensions = extensions;
  return { params, mediaType };
}

/** Yoga's test of a request's content type (case as sent; parameters after a semicolon allowed). */
function isContentType(sent: string, expected: string): boolean {
  return sent === expected || sent.startsWith(`${expected};`);
}

/** The two media types yoga answers a single result as, in the order it offers them. */
const REGULAR_MEDIA_TYPES = ['application/graphql-response+json', 'application/json'] as const;

/**
 * The media type yoga answers a single result as for this Accept header, or null when it would
 * stream it (text/event-stream, multipart/mixed) or refuse it (406). Yoga reads the header's types
 * last to first and keeps the last match, its regular types after the streaming ones; only UTF-8 counts.
 */
function regularMediaType(accept: string | null): string | null {
  const asked = (accept === null || accept === '' ? '*/*' : accept).replace(/\s/g, '').toLowerCase().split(',').reverse();
  let chosen: string | null = null;
  for (const one of asked) {
    const [type = '', ...parameters] = one.split(';');
    const charset = parameters.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    const [pre, suf] = type.split('/');
    for (const offered of REGULAR_MEDIA_TYPES) {
      const [offeredPre, offeredSuf] = offered.split('/');
      if ((pre === '*' || pre === offeredPre) && (suf === '*' || suf === offeredSuf)) chosen = offered;
    }
  }
  return chosen;
}

/** The operations a request asks for (a batch holds several), from the body the door read. */
function paramsOf(request: Request, url: URL, text: string | null): GraphqlParams[] {
  if (text === null) return [{ query: url.searchParams.get('query'), operationName: url.searchParams.get('operationName') }];
  if ((request.headers.get('content-type') ?? '').includes('application/graphql')) return [{ query: text }];
  try {
    const body: unknown = JSON.parse(text);
    const list: unknown[] = Array.isArray(body) ? body : [body];
    return list.map((one): GraphqlParams => (typeof one === 'object' && one !== null ? one : {}));
  } catch {
    return [{}];
  }
}
