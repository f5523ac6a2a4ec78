import type { Services } from '../resolvers/context.js';
import { operationTable } from '../operations/operation-table.js';
import { createRestHandler } from '../rest/create-rest-handler.js';
import { jsonResponse } from '../operations/json-response.js';
import type { Yoga } from './create-yoga.js';
import { handleGraphql } from './graphql-door.js';
import { createOperationRunner } from './run-operation.js';
import { healthResponse } from './health.js';
import { createMcpHandler } from '../mcp/create-mcp-handler.js';
import { toolsCatalogue } from '../operations/tools-catalogue.js';
import type { FetchHandler } from './serve-http.js';
import { createDocsRoutes } from './serve-docs.js';
import { checksPageResponse } from '../web/checks-page.js';

/**
 * Browser-ready CORS: any page may call the checks, read the allowance headers and the request id
 * (a browser hides every other response header from scripts unless exposed), and speak MCP over
 * Streamable HTTP (its client sends mcp-protocol-version, and mcp-session-id where a server made one).
 */
export const PUBLIC_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, X-Request-Id, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'Access-Control-Expose-Headers': 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, Mcp-Session-Id',
  'Access-Control-Max-Age': '86400',
} as const;

/** {base_url}: the keyless public checks, CORS open on every answer. */
export function createPublicApp(services: Services, yoga: Yoga): FetchHandler {
  const runOperation = createOperationRunner(yoga);
  const rows = operationTable.filter((r) => r.listener === 'public');
  const rest = createRestHandler({ rows, runOperation, services, cors: true });
  const mcp = createMcpHandler({ name: 'deliverability-checks', rows, runOperation, services, requireKey: false });
  const docs = createDocsRoutes(rows, 'public', services.config.publicUrl);
  return async function publicApp(request, info) {
    const response = await route(request, info);
    for (const [name, value] of Object.entries(PUBLIC_CORS)) response.headers.set(name, value);
    return response;
  };

  async function route(request: Request, info: Parameters<FetchHandler>[1]): Promise<Response> {
    if (request.method === 'OPTIONS') return new Response(null, { status: 204 });
    const path = (info.url ?? new URL(request.url)).pathname;
    const health = await healthResponse(path, services);
    if (health) return health;
    if (path === '/' && (request.method === 'GET' || request.method === 'HEAD')) return checksPageResponse(request);
    if (path === '/graphql') return handleGraphql(yoga, services, request, info);
    if (path === '/mcp') return mcp(request, info);
    if (path === '/tools.json') return jsonResponse(200, toolsCatalogue(rows, services.config.publicUrl));
    const reference = docs(request, path);
    if (reference) return reference;
    const answer = await rest(request, info);
    if (answer) return answer;
    return jsonResponse(404, {
      detail: `There is no ${path}; the checks are at /.platform/functions/<name> (see /tools.json).`,
      code: 'not_found',
      request_id: info.requestId,
    });
  }
}
