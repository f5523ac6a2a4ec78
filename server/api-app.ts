import type { Services } from '../resolvers/context.js';
import { operationTable } from '../rest/operation-table.js';
import { createRestHandler } from '../rest/create-rest-handler.js';
import { jsonResponse } from '../rest/json-response.js';
import type { Yoga } from './create-yoga.js';
import { handleGraphql } from './graphql-door.js';
import { healthResponse } from './health.js';
import type { FetchHandler } from './serve-http.js';

/** {api_url}: the account API (/v1/...), /graphql and health. */
export function createApiApp(services: Services, yoga: Yoga): FetchHandler {
  const rest = createRestHandler({ rows: operationTable.filter((r) => r.listener === 'api'), yoga, services, cors: false });
  return async function apiApp(request, info) {
    const path = new URL(request.url).pathname;
    const health = await healthResponse(path, services);
    if (health) return health;
    if (path === '/graphql') return handleGraphql(yoga, services, request, info);
    const answer = await rest(request, info);
    if (answer) return answer;
    return jsonResponse(404, { detail: `There is no ${path}; the account API's paths are under /v1 (see ${services.config.apiUrl}/docs).`, code: 'not_found', request_id: info.requestId });
  };
}
