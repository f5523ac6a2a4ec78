import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolNameOf, type OperationRow } from '../operations/operation-table.js';
import { toolOutputOf } from '../operations/answer-schema.js';
import { inputSchemaFor } from '../operations/input-schema.js';
import { bodySchemaFor } from '../operations/body-schema.js';
import { readParams } from '../operations/read-params.js';
import { unknownInputsError } from '../operations/describe-input-error.js';
import { errorResponse, jsonResponse } from '../operations/json-response.js';
import type { ApiError } from '../operations/api-error.js';
import { mcpAnswerOf } from './mcp-error-words.js';
import { unauthenticatedError } from '../resolvers/auth/auth-errors.js';
import { createContext, type Services } from '../resolvers/context.js';
import type { Caller } from '../resolvers/auth/api-keys.js';
import type { RequestInfo } from '../operations/request-info.js';
import type { RunOperation } from '../operations/run-operation-type.js';
import type { RateLimitOutcome } from '../resolvers/limits/rate-limits.js';
import { jsonTooDeep, tooDeepError } from '../operations/parse-json-bounded.js';
import { lookAtAllowance, rateLimitHeaders, spendAllowance, spendFor, type Principal } from '../resolvers/limits/door-policy.js';

export interface McpHandlerOptions {
  readonly name: string;
  readonly rows: readonly OperationRow[];
  /** Runs a row's operation in-process (injected by the server). */
  readonly runOperation: RunOperation;
  readonly services: Services;
  /** Account MCP: a key is required before any exchange, and tools are listed by the key's scopes. */
  readonly requireKey: boolean;
  /** Account MCP: the WWW-Authenticate challenge of a 401 (RFC 9728: where the protected resource metadata is). */
  readonly challenge?: (sentKey: boolean, requestUrl: URL) => string;
  /** Input fields beyond the row's params and body, such as place_order's idempotency_key. */
  readonly extraInputs?: (row: OperationRow) => { schema?: Record<string, unknown>; extra?: Record<string, Record<string, unknown>> };
}

/**
 * A stateless Streamable HTTP MCP endpoint built from the operation table: a fresh server and
 * transport per HTTP request, one tool per row (every row of the listener, named toolNameOf), each
 * running the row's operation in-process, so a tool answers exactly what its REST path answers and
 * a row added to the table is a tool with no more code. Each tool declares its answer's JSON Schema
 * as outputSchema and answers it as structuredContent beside the text (MCP 2025-06-18). Here the
 * key is required and each message counted (the exchange's own policy); each tool call's spend,
 * key and scope are decided by the operation runner (server/admit-caller.ts), as for REST.
 */
export function createMcpHandler(options: McpHandlerOptions) {
  const tools = options.rows;
  const byName = new Map(tools.map((r) => [toolNameOf(r), r]));
  const outputs = new Map(tools.map((row) => [row, toolOutputOf(row)]));
  // A tool's input schema lists its body's fields too (from the GraphQL input type, written in
  // place), so a model sees every field, type and required name; computed once, the table is fixed.
  const inputSchemas = new Map(
    tools.map((row) => {
      const more = options.extraInputs?.(row) ?? {};
      return [row, inputSchemaFor(row, more.schema ?? bodySchemaFor(row), more.extra) as { type: 'object' }];
    }),
  );

  return async function handleMcp(request: Request, info: RequestInfo): Promise<Response> {
    const ctx = createContext(options.services, {
      authorization: request.headers.get('authorization'),
      requestId: info.requestId,
      ...(info.logIds ? { logIds: info.logIds } : {}),
      clientAddress: info.clientAddress,
      signal: info.signal ?? request.signal,
      door: 'mcp',
    });
    let caller: Caller | null = null;
    let principal: Principal;
    const outcomes: RateLimitOutcome[] = [];
    let parsedBody: unknown;
    try {
      if (options.requireKey) {
        caller = await ctx.caller();
        if (!caller) throw unauthenticatedError(ctx.sentKey);
        principal = { kind: 'key', caller };
      } else {
        principal = { kind: 'address', clientAddress: ctx.clientAddress };
      }
      if (request.method !== 'POST') {
        // The server is stateless: no SSE stream to open (GET) and no session to end (DELETE). The
        // SDK's client takes a 405 as "not offered" and goes on; nothing is spent.
        const outcome = await lookAtAllowance(options.services.rateLimits, principal);
        const detail = `Use POST on /mcp: this MCP server is stateless and offers no ${request.method === 'GET' ? 'event stream to open' : 'session to end'}.`;
        return jsonResponse(
          405,
          { jsonrpc: '2.0', error: { code: -32000, message: detail }, id: null, detail, code: 'method_not_allowed', request_id: info.requestId },
          { Allow: 'POST', 'X-Request-Id': info.requestId, ...rateLimitHeaders(outcome) },
        );
      }
      parsedBody = await readJsonRpc(request);
      // Every JSON-RPC request and notification counts (SPEC 8: "every MCP message"), a batch by its
      // length; the client's answers to server requests do not. A body that is not JSON counts once.
      outcomes.push(await spendAllowance(options.services.rateLimits, principal, spendFor(options.requireKey ? 'read' : 'public', messageCount(parsedBody))));
    } catch (thrown) {
      const error = mcpAnswerOf(thrown);
      if (error) {
        const challenge: Record<string, string> =
          error.status === 401 && options.challenge ? { 'WWW-Authenticate': options.challenge(ctx.sentKey, info.url ?? new URL(request.url)) } : {};
        return errorResponse(error, info.requestId, challenge);
      }
      throw thrown;
    }

    const server = new Server({ name: options.name, version: '2026-09-26' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: tools
        .filter((row) => !caller || row.scope === null || caller.scopes.includes(row.scope))
        .map((row) => ({
          name: toolNameOf(row),
          description: row.summary,
          inputSchema: inputSchemas.get(row) as { type: 'object' },
          outputSchema: outputs.get(row)?.schema,
          annotations: row.annotations,
        })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call): Promise<CallToolResult> => {
      const row = byName.get(call.params.name);
      if (!row) return toolError(`There is no tool "${call.params.name}"; list the tools to see the ones this key can use.`);
      try {
        // The runner admits the call (a changing tool spends the changing allowance too, as its REST
        // path does; who may call it: server/admit-caller.ts) before its arguments are read.
        const answer = await options.runOperation(
          row,
          () => toolVariables(row, call.params.arguments ?? {}, options),
          ctx,
          'mcp',
          (outcome) => outcomes.push(outcome),
        );
        return toolResult(answer, row, outputs.get(row)?.wrap);
      } catch (thrown) {
        // A rule's refusal in MCP's words, with the status of operations/error-statuses.ts (mcp-error-words.ts).
        const error = mcpAnswerOf(thrown);
        if (error) {
          if (error.status === 429 && typeof error.extras.limit === 'number') {
            outcomes.push({ limit: error.extras.limit, remaining: 0, resetSeconds: Number(error.extras.retry_after ?? 0) });
          }
          return toolError(error.detail, error);
        }
        throw thrown;
      }
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
      const headers = new Headers(response.headers);
      const tightest = outcomes.reduce((a, b) => (b.remaining < a.remaining ? b : a));
      for (const [name, value] of Object.entries(rateLimitHeaders(tightest))) headers.set(name, value);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    } finally {
      void server.close();
    }
  };
}

/** The POST body as JSON, or undefined when it is not JSON (the transport then answers the parse error). */
async function readJsonRpc(request: Request): Promise<unknown> {
  const text = await request.clone().text();
  if (jsonTooDeep(text)) throw tooDeepError();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON-RPC requests and notifications carry a method; answers (result or error) do not. */
function messageCount(body: unknown): number {
  const isMessage = (m: unknown) => typeof m === 'object' && m !== null && typeof (m as { method?: unknown }).method === 'string';
  if (Array.isArray(body)) return Math.max(1, body.filter(isMessage).length);
  return 1;
}

/**
 * A tool's answer: the REST answer as text (JSON, or the zone file itself for a text answer) and
 * the same value as structuredContent, under its wrapping key when it is not an object.
 */
function toolResult(answer: unknown, row: OperationRow, wrap: string | undefined): CallToolResult {
  const text = row.textAnswer && typeof answer === 'string' ? answer : JSON.stringify(answer);
  const structured = wrap ? { [wrap]: answer } : (answer as Record<string, unknown>);
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

function toolError(detail: string, error?: ApiError): CallToolResult {
  const body = error ? { detail, code: error.code, status: error.status, ...error.extras } : { detail };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/**
 * Tool arguments as the operation's variables: the row's params (lists joined, as REST joins them),
 * extra inputs named by the handler (idempotency_key), and everything else as the JSON body. Unknown
 * arguments of a row without a body are refused here, as REST refuses unknown body fields.
 */
function toolVariables(row: OperationRow, args: Record<string, unknown>, options: McpHandlerOptions): Record<string, unknown> {
  const paramNames = new Set(row.params.map((p) => p.name));
  const extraNames = Object.keys(options.extraInputs?.(row).extra ?? {});
  const bodyArgs: Record<string, unknown> = {};
  const paramArgs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (paramNames.has(name)) paramArgs[name] = value;
    else if (extraNames.includes(name)) continue;
    else if (!row.bodyVariable) throw unknownInputsError([name], [...paramNames, ...extraNames], 'mcp', row.listener);
    else bodyArgs[name] = value;
  }
  const variables = readParams(row, stringPathParams(row, args), new URLSearchParams(), paramArgs, 'mcp');
  // Snake_case as sent: the operation runner names its fields as GraphQL does (operations/wire-shape.ts).
  if (row.bodyVariable) variables[row.bodyVariable] = bodyArgs;
  for (const { header, variable } of row.headerVariables ?? []) {
    const argName = header.toLowerCase().replace(/-/g, '_');
    if (typeof args[argName] === 'string') variables[variable] = args[argName];
  }
  return variables;
}

function stringPathParams(row: OperationRow, args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(row.params.filter((p) => p.in === 'path' && args[p.name] !== undefined).map((p) => [p.name, String(args[p.name])]));
}
