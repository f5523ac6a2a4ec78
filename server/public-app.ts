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
import { routeTable } from './route-table.js';

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
  const routes = routeTable(
    [
      { paths: ['/healthz', '/readyz'], handle: (_request, info) => healthResponse(info.path, services) },
      // The checks page is read; any other method on / goes on to the 404.
      { paths: ['/'], handle: (request) => (request.method === 'GET' || request.method === 'HEAD' ? checksPageResponse(request) : null) },
      { paths: ['/graphql'], handle: (request, info) => handleGraphql(yoga, services, request, info) },
      { paths: ['/mcp'], handle: mcp },
      { paths: ['/tools.json'], handle: () => jsonResponse(200, toolsCatalogue(rows, services.config.publicUrl)) },
      { paths: ['/openapi.json', '/docs'], handle: (request, info) => docs(request, info.path) },
      // The operation table's check paths, matched by its own matcher (rest/match-route.ts).
      { handle: rest },
    ],
    (_request, info) =>
      jsonResponse(404, {
        detail: `There is no ${info.path}; the checks are at /.platform/functions/<name> (see /tools.json).`,
        code: 'not_found',
        request_id: info.requestId,
      }),
  );
  return async function publicApp(request, info) {
    // Every path takes a CORS preflight.
    const response = request.method === 'OPTIONS' ? new Response(null, { status: 204 }) : await routes(request, info);
    for (const [name, value] of Object.entries(PUBLIC_CORS)) response.headers.set(name, value);
    return response;
  };
}
