import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { OperationRow } from '../rest/operation-table.js';
import { inputSchemaFor } from '../rest/input-schema.js';
import { bodySchemaFor } from '../rest/body-schema.js';
import { readParams } from '../rest/read-params.js';
import { camelizeKeys } from '../rest/snake-to-camel.js';
import { errorResponse } from '../rest/json-response.js';
import { ApiError } from '../resolvers/api-error.js';
import { unauthenticatedError } from '../resolvers/auth/auth-errors.js';
import { createContext, type Context, type Services } from '../resolvers/context.js';
import type { Caller } from '../resolvers/auth/api-keys.js';
import type { RestRequestInfo as RequestInfo } from '../rest/create-rest-handler.js';
import type { RunOperation } from '../rest/run-operation-type.js';
import { consumeForKey } from '../resolvers/limits/count-caller.js';

export interface McpHandlerOptions {
  readonly name: string;
  readonly rows: readonly OperationRow[];
  /** Runs a row's operation in-process (injected by the server). */
  readonly runOperation: RunOperation;
  readonly services: Services;
  /** Account MCP: a key is required before any exchange, and tools are listed by the key's scopes. */
  readonly requireKey: boolean;
  /** Input fields beyond the row's params and body, such as place_order's idempotency_key. */
  readonly extraInputs?: (row: OperationRow) => { schema?: Record<string, unknown>; extra?: Record<string, Record<string, unknown>> };
}

/**
 * A stateless Streamable HTTP MCP endpoint built from the operation table: a fresh server and
 * transport per HTTP request, one tool per row with an `mcpTool` name, each running the row's
 * operation in-process, so a tool answers exactly what its REST path answers. The schema's
 * scope-auth refuses a tool the key lacks the scope for, naming the scope.
 */
export function createMcpHandler(options: McpHandlerOptions) {
  const tools = options.rows.filter((r) => r.mcpTool);
  const byName = new Map(tools.map((r) => [r.mcpTool as string, r]));
  // A tool's input schema lists its body's fields too (from the GraphQL input type, written in
  // place), so a model sees every field, type and required name; computed once, the table is fixed.
  const inputSchemas = new Map(tools.map((row) => {
    const more = options.extraInputs?.(row) ?? {};
    return [row, inputSchemaFor(row, more.schema ?? bodySchemaFor(row), more.extra) as { type: 'object' }];
  }));

  return async function handleMcp(request: Request, info: RequestInfo): Promise<Response> {
    const ctx = createContext(options.services, { authorization: request.headers.get('authorization'), requestId: info.requestId, clientAddress: info.clientAddress, signal: request.signal });
    let caller: Caller | null = null;
    try {
      if (options.requireKey) {
        caller = await ctx.caller();
        if (!caller) throw unauthenticatedError(ctx.sentKey);
        // Every MCP message counts against the 240-per-minute reading allowance.
        await consumeForKey(options.services.rateLimits, 'read', caller);
      } else {
        await options.services.rateLimits.consume('public', ctx.clientAddress);
      }
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error, info.requestId);
      throw error;
    }

    const server = new Server({ name: options.name, version: '2026-09-26' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: tools
        .filter((row) => !caller || row.scope === null || caller.scopes.includes(row.scope))
        .map((row) => ({ name: row.mcpTool as string, description: row.summary, inputSchema: inputSchemas.get(row) as { type: 'object' } })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call): Promise<CallToolResult> => {
      const row = byName.get(call.params.name);
      if (!row) return toolError(`There is no tool "${call.params.name}"; list the tools to see the ones this key can use.`);
      try {
        const answer = await options.runOperation(row, toolVariables(row, call.params.arguments ?? {}, options), ctx);
        return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
      } catch (error) {
        if (error instanceof ApiError) return toolError(error.detail, error);
        throw error;
      }
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      void server.close();
    }
  };
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
    else if (!row.bodyVariable) throw new ApiError(400, 'unknown_field', `Remove "${name}": it is not an input of ${row.mcpTool}.`);
    else bodyArgs[name] = value;
  }
  const variables = readParams(row, stringPathParams(row, args), new URLSearchParams(), paramArgs);
  if (row.bodyVariable) variables[row.bodyVariable] = camelizeKeys(bodyArgs);
  for (const { header, variable } of row.headerVariables ?? []) {
    const argName = header.toLowerCase().replace(/-/g, '_');
    if (typeof args[argName] === 'string') variables[variable] = args[argName];
  }
  return variables;
}

function stringPathParams(row: OperationRow, args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(row.params.filter((p) => p.in === 'path' && args[p.name] !== undefined).map((p) => [p.name, String(args[p.name])]));
}

export type { Context };
