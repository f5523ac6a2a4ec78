import type { OperationRow } from '../operations/operation-table.js';
import { createRouteMatcher } from './match-route.js';
import { readParams } from '../operations/read-params.js';
import { errorResponse, JSON_ANSWER_HEADERS, jsonTextResponse } from '../operations/json-response.js';
import { etagOf, notModified } from './conditional-read.js';
import { ApiError, badRequest } from '../operations/api-error.js';
import { restAnswerOf } from './rest-error-words.js';
import { createContext, type Services } from '../resolvers/context.js';
import { lookAtAllowance, principalOf, rateLimitHeaders } from '../resolvers/limits/door-policy.js';
import type { RunOperation } from '../operations/run-operation-type.js';
import type { RequestInfo } from '../operations/request-info.js';
import { parseJsonBounded } from '../operations/parse-json-bounded.js';
import { unknownInputsError } from '../operations/describe-input-error.js';

/**
 * The REST door: matches a row of the operation table and runs the row's operation in-process,
 * handing the runner how to turn path, query and body into variables. The runner decides what the
 * call spends and who may make it (server/admit-caller.ts) before the input is read. It holds no
 * business rule; every refusal comes from the door policy, the schema or a resolver.
 */
export function createRestHandler(options: {
  readonly rows: readonly OperationRow[];
  readonly runOperation: RunOperation;
  readonly services: Services;
  readonly cors: boolean;
}) {
  const match = createRouteMatcher(options.rows);
  const corsHeaders: Record<string, string> = options.cors ? { 'Access-Control-Allow-Origin': '*' } : {};

  return async function handleRest(request: Request, info: RequestInfo): Promise<Response | null> {
    const url = info.url ?? new URL(request.url);
    const headers: Record<string, string> = { ...corsHeaders, 'X-Request-Id': info.requestId };
    try {
      // Public checks also take POST with a JSON body whose keys are the query parameter names.
      const publicPost = options.cors && request.method === 'POST';
      const found = match(publicPost ? 'GET' : request.method, url.pathname);
      if (found.kind === 'not_found') return null;
      if (found.kind === 'wrong_method') {
        // Refused before any operation runs: nothing is counted, the headers say where things stand.
        const ctx = createContext(options.services, {
          authorization: request.headers.get('authorization'),
          requestId: info.requestId,
          ...(info.logIds ? { logIds: info.logIds } : {}),
          clientAddress: info.clientAddress,
        });
        const principal = options.cors ? { kind: 'address' as const, clientAddress: info.clientAddress } : await principalOf(ctx);
        Object.assign(headers, rateLimitHeaders(await lookAtAllowance(options.services.rateLimits, principal)));
        const allow = [...found.allow, ...(options.cors ? ['POST', 'OPTIONS'] : [])].join(', ');
        // The path as sent, cut short: a caller may send a path of a megabyte.
        const path = url.pathname.length > 200 ? `${url.pathname.slice(0, 200)}…` : url.pathname;
        throw new ApiError(405, 'method_not_allowed', `Use ${allow} on ${path}; ${request.method} is not accepted there.`, { allow });
      }
      const { row, pathParams } = found.match;
      const ctx = createContext(options.services, {
        authorization: request.headers.get('authorization'),
        requestId: info.requestId,
        ...(info.logIds ? { logIds: info.logIds } : {}),
        clientAddress: info.clientAddress,
        signal: info.signal ?? request.signal,
        door: 'rest',
      });
      // The input is read once the runner has admitted the call (what it spends, told here for the
      // headers; who may call it: server/admit-caller.ts), so a caller without a key learns no input rule.
      const readVariables = () => readVariablesOf(request, url, row, pathParams, publicPost);
      const answer = await options.runOperation(row, readVariables, ctx, 'rest', (outcome) => Object.assign(headers, rateLimitHeaders(outcome)));
      // A placement answered from its Idempotency-Key says so in a header too (as Stripe's does).
      if (row.headerVariables?.some((h) => h.header === 'Idempotency-Key') && isReplayed(answer)) headers['Idempotent-Replayed'] = 'true';
      const text = row.textAnswer && typeof answer === 'string' ? answer : JSON.stringify(answer);
      const contentType = row.textAnswer && typeof answer === 'string' ? `${row.textAnswer}; charset=utf-8` : 'application/json; charset=utf-8';
      // An account read carries an ETag; the same If-None-Match gets a 304 without the body. The
      // read still ran and counted (the ETag saves bytes, not the allowance). The public checks are
      // live and never cached, and a GET that is not read-only (the credentials export, which
      // records an event) stays no-store, so they carry none.
      if (row.method === 'GET' && row.scope !== null && row.annotations.readOnlyHint && !publicPost) {
        const etag = etagOf(text);
        Object.assign(headers, { ETag: etag, 'cache-control': 'private, no-cache' });
        if (notModified(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
      }
      if (row.textAnswer && typeof answer === 'string')
        return new Response(text, { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store', ...headers } });
      // The text made once above, for the ETag and the answer.
      return jsonTextResponse(200, text, { ...JSON_ANSWER_HEADERS, ...headers });
    } catch (thrown) {
      // A rule's refusal answered with REST's status and words (rest-error-words.ts).
      const error = restAnswerOf(thrown);
      if (error) {
        const extra = { ...headers };
        if (error.status === 405 && typeof error.extras.allow === 'string') extra.Allow = error.extras.allow;
        return errorResponse(error, info.requestId, extra);
      }
      throw thrown;
    }
  };
}

/** A REST call's variables: path, query, JSON or raw body and header inputs of its row. */
async function readVariablesOf(
  request: Request,
  url: URL,
  row: OperationRow,
  pathParams: Record<string, string>,
  publicPost: boolean,
): Promise<Record<string, unknown>> {
  const bodyFields = row.params.some((p) => p.in === 'body');
  const raw = row.rawBody && !isJsonBody(request) ? row.rawBody : undefined;
  // A row whose body fields are all optional (verify_domain's connection_id) may be called with no body, as before it had any.
  const bodyOptional = bodyFields && !row.bodyVariable && !publicPost && row.params.every((p) => p.in !== 'body' || !p.required);
  const body = raw
    ? await readRawBody(request, url, raw)
    : row.bodyVariable || publicPost || bodyFields
      ? await readJsonBody(request, bodyOptional)
      : undefined;
  // A call that takes no body may send none or {}: anything else is a mistake to report before
  // the operation runs (a reset sent with a misspelt field must not reset regardless).
  if (body === undefined && request.method !== 'GET' && request.method !== 'HEAD') await refuseUnexpectedBody(request, row);
  const variables = readParams(row, pathParams, url.searchParams, publicPost || bodyFields ? body : undefined);
  // Snake_case as sent: the operation runner names its fields as GraphQL does (operations/wire-shape.ts).
  if (row.bodyVariable) variables[row.bodyVariable] = body;
  for (const { header, variable } of row.headerVariables ?? []) {
    const value = request.headers.get(header);
    if (value !== null) variables[variable] = value;
  }
  return variables;
}

function isJsonBody(request: Request): boolean {
  // Only application/json itself: a TLS-RPT file is application/tlsrpt+json, sent as it is.
  return /^application\/json\s*(;|$)/i.test(request.headers.get('content-type') ?? '');
}

/** A file sent as the body itself: its bytes in base64 under `contentField`, its name from ?filename= or Content-Disposition. */
async function readRawBody(request: Request, url: URL, raw: { readonly contentField: string; readonly nameField: string }): Promise<Record<string, unknown>> {
  const bytes = Buffer.from(await request.arrayBuffer());
  if (bytes.length === 0) throw badRequest('missing_body', 'Send the file as the request body (or JSON with its base64 in "content").');
  const disposition = /filename="?([^";]+)"?/i.exec(request.headers.get('content-disposition') ?? '')?.[1];
  const name = url.searchParams.get(raw.nameField) ?? disposition;
  return { [raw.contentField]: bytes.toString('base64'), ...(name ? { [raw.nameField]: name } : {}) };
}

function isReplayed(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && (answer as { replayed?: unknown }).replayed === true;
}

async function readJsonBody(request: Request, mayBeEmpty = false): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '' && mayBeEmpty) return {};
  if (text.trim() === '') throw badRequest('missing_body', 'Send a JSON object as the request body.');
  const value = parseJsonBounded(text, {
    code: 'malformed_json',
    detail: 'The body is not valid JSON; send a JSON object with Content-Type: application/json.',
  });
  if (!isJsonObject(value)) throw badRequest('body_not_object', 'Send a JSON object (not a list, string or number) as the request body.');
  return value;
}

/** The body of a call that takes none: empty, or a JSON object with no keys. */
async function refuseUnexpectedBody(request: Request, row: OperationRow): Promise<void> {
  const text = await request.text();
  if (text.trim() === '') return;
  const value = parseJsonBounded(text, {
    code: 'malformed_json',
    detail: 'The body is not valid JSON; this call takes no body, so send none (or {}).',
  });
  if (!isJsonObject(value)) throw badRequest('body_not_object', 'This call takes no body; send none (or {}), not a list, string or number.');
  const keys = Object.keys(value);
  if (keys.length > 0) throw unknownInputsError(keys, [], 'rest', row.listener);
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
