import type { Services } from '../resolvers/context.js';
import { operationTable } from '../operations/operation-table.js';
import { createRestHandler } from '../rest/create-rest-handler.js';
import { jsonResponse } from '../operations/json-response.js';
import type { Yoga } from './create-yoga.js';
import { handleGraphql } from './graphql-door.js';
import { createOperationRunner } from './run-operation.js';
import { healthResponse } from './health.js';
import { createMcpHandler } from '../mcp/create-mcp-handler.js';
import { mcpChallenge, PROTECTED_RESOURCE_PREFIX, protectedResourceRoute } from '../mcp/protected-resource.js';
import type { FetchHandler } from './serve-http.js';
import { CLI_PATH, serveCli } from './serve-cli.js';
import { createDocsRoutes } from './serve-docs.js';
import { handleSandboxCardRoute } from './sandbox-card-route.js';
import { createStripeWebhookRoute, STRIPE_WEBHOOK_PATH } from './stripe-webhook-route.js';
import { SANDBOX_CARD_PATH } from '../clients/payments/sandbox-processor.js';
import { useListenerOrigin } from './create-payments.js';
import { createAuthRoutes } from './auth-routes.js';
import { createPortalRoute } from './serve-portal.js';

/** {api_url}: the account API (/v1/...), /graphql and health. */
export function createApiApp(services: Services, yoga: Yoga): FetchHandler {
  const runOperation = createOperationRunner(yoga);
  const rows = operationTable.filter((r) => r.listener === 'api');
  const rest = createRestHandler({ rows, runOperation, services, cors: false });
  const mcp = createMcpHandler({
    name: 'deliverability-account',
    rows,
    runOperation,
    services,
    requireKey: true,
    challenge: (sentKey, url) => mcpChallenge(ownApiUrl(url), sentKey),
    // place_order takes the Idempotency-Key as an argument (same format rule as the header).
    extraInputs: (row) =>
      row.headerVariables?.length
        ? {
            extra: {
              idempotency_key: {
                type: 'string',
                pattern: '^[A-Za-z0-9.:_-]{8,64}$',
                description: 'A new unique key per order (8-64 letters, digits, . - : _); retrying with the same key never places a second order.',
              },
            },
          }
        : {},
  });
  // API_URL, or (started on port 0, as tests start it) the origin the listener is reached at.
  const ownApiUrl = (url: URL) => (services.config.apiPort === 0 ? url.origin : services.config.apiUrl);
  const stripeWebhook = createStripeWebhookRoute(services);
  const docs = createDocsRoutes(rows, 'api', services.config.apiUrl);
  const auth = createAuthRoutes(services);
  const portal = createPortalRoute();
  return async function apiApp(request, info) {
    const url = info.url ?? new URL(request.url);
    const path = url.pathname;
    useListenerOrigin(services.payments, url.origin);
    // The two payment pages each read the URL again, so they are asked only on their own paths.
    if (path === SANDBOX_CARD_PATH || path === STRIPE_WEBHOOK_PATH) {
      const page = (await handleSandboxCardRoute(request, services)) ?? (await stripeWebhook(request, info.requestId));
      if (page) return page;
    }
    const health = await healthResponse(path, services);
    if (health) return health;
    if (path.startsWith('/auth/')) {
      const answer = await auth(request, info);
      if (answer) return answer;
    }
    const portalPage = portal(request, info.requestId, path);
    if (portalPage) return portalPage;
    if (path === '/graphql') return handleGraphql(yoga, services, request, info);
    if (path === '/mcp') return mcp(request, info);
    if (path.startsWith(PROTECTED_RESOURCE_PREFIX)) {
      const metadata = protectedResourceRoute(request, path, ownApiUrl(url), info.requestId);
      if (metadata) return metadata;
    }
    if (path === CLI_PATH) return serveCli(request, info.requestId);
    const reference = docs(request, path);
    if (reference) return reference;
    const answer = await rest(request, { ...info, url });
    if (answer) return answer;
    return jsonResponse(404, {
      detail: `There is no ${path}; the account API's paths are under /v1 (see ${services.config.apiUrl}/docs).`,
      code: 'not_found',
      request_id: info.requestId,
    });
  };
}
