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
import { routeTable } from './route-table.js';

/** {api_url}: the account API (/v1/...), /graphql, MCP, the portal, sign-in, the payment pages and health, as one route table. */
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
  // The OAuth authorization server's paths (/oauth/..., its metadata) are answered before this table,
  // on Node's own request: serve-http's nodeRoute, given by server/oauth-routes.ts.
  return routeTable(
    [
      // The two payment pages: the sandbox processor's card form and Stripe's events.
      { paths: [SANDBOX_CARD_PATH], handle: (request) => handleSandboxCardRoute(request, services) },
      { paths: [STRIPE_WEBHOOK_PATH], handle: (request, info) => stripeWebhook(request, info.requestId) },
      { paths: ['/healthz', '/readyz'], handle: (_request, info) => healthResponse(info.path, services) },
      // Sign-in, sign-out and invitations (answers null for a path under /auth/ it does not have).
      { prefix: '/auth/', handle: auth },
      { paths: ['/portal'], prefix: '/portal/', handle: (request, info) => portal(request, info.requestId, info.path) },
      { paths: ['/graphql'], handle: (request, info) => handleGraphql(yoga, services, request, info) },
      { paths: ['/mcp'], handle: mcp },
      { prefix: PROTECTED_RESOURCE_PREFIX, handle: (request, info) => protectedResourceRoute(request, info.path, ownApiUrl(info.url), info.requestId) },
      { paths: [CLI_PATH], handle: (request, info) => serveCli(request, info.requestId) },
      { paths: ['/openapi.json', '/docs'], handle: (request, info) => docs(request, info.path) },
      // The operation table's REST paths, matched by its own matcher (rest/match-route.ts).
      { handle: rest },
    ],
    (_request, info) =>
      jsonResponse(404, {
        detail: `There is no ${info.path}; the account API's paths are under /v1 (see ${services.config.apiUrl}/docs).`,
        code: 'not_found',
        request_id: info.requestId,
      }),
    (_request, info) => useListenerOrigin(services.payments, info.url.origin),
  );
}
