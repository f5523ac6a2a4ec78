import type { Services } from '../resolvers/context.js';
import { operationTable } from '../rest/operation-table.js';
import { createRestHandler } from '../rest/create-rest-handler.js';
import { jsonResponse } from '../rest/json-response.js';
import type { Yoga } from './create-yoga.js';
import { handleGraphql } from './graphql-door.js';
import { healthResponse } from './health.js';
import type { FetchHandler } from './serve-http.js';

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept',
  'Access-Control-Max-Age': '86400',
};

/** {base_url}: the keyless public checks, CORS open on every answer. */
export function createPublicApp(services: Services, yoga: Yoga): FetchHandler {
  const rest = createRestHandler({ rows: operationTable.filter((r) => r.listener === 'public'), yoga, services, cors: true });
  return async function publicApp(request, info) {
    const response = await route(request, info);
    for (const [name, value] of Object.entries(CORS)) response.headers.set(name, value);
    return response;
  };

  async function route(request: Request, info: Parameters<FetchHandler>[1]): Promise<Response> {
    if (request.method === 'OPTIONS') return new Response(null, { status: 204 });
    const path = new URL(request.url).pathname;
    const health = await healthResponse(path, services);
    if (health) return health;
    if (path === '/graphql') return handleGraphql(yoga, services, request, info);
    const answer = await rest(request, info);
    if (answer) return answer;
    return jsonResponse(404, { detail: `There is no ${path}; the checks are at /.platform/functions/<name> (see /tools.json).`, code: 'not_found', request_id: info.requestId });
  }
}
