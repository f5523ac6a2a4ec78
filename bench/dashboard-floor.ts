// The same engine settings as the service (server/v8-settings.ts), so the comparison is of the work alone.
import '../server/v8-settings.js';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../db/open-database.js';
import { readSettings, serviceConfigFromEnv } from '../config/settings.js';
import { createContext } from '../resolvers/context.js';
import { consumeForKey } from '../resolvers/limits/count-caller.js';
import { getDashboardSummary, listDashboardDomainPage, type DashboardDomainPage, type DashboardSummary } from '../resolvers/account/get-dashboard.js';
import { createServices } from '../server/create-services.js';

/**
 * The dashboard bench's floor: a plain node:http handler doing the work every dashboard request
 * must do and nothing else: the key lookup, the reading allowance's count, the dashboard's SQL
 * (the same resolver functions: the counts and the first page of domains, 10 by default, as
 * `GET /v1/portal/dashboard` answers) and JSON.stringify of the same snake_case answer, has_more
 * included. No router, no GraphQL, no door. Run as its own process on the bench's database
 * (DATA_DIR or DATABASE_URL). The bench checks its answer equal to REST's before measuring.
 */
const config = { ...serviceConfigFromEnv(process.env), apiPort: 0, publicPort: 0 };
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const services = createServices(database, config, readSettings(process.env), { rateLimits: { read: 100_000_000 } });
await services.rateLimits.ready();

function snakeCase(d: DashboardSummary, page: DashboardDomainPage) {
  return {
    account_id: d.accountId,
    account_name: d.accountName,
    order_count: d.orderCount,
    domain_count: d.domainCount,
    mailbox_count: d.mailboxCount,
    orders: page.orders.map((o) => ({
      order_id: o.orderId,
      subscription_id: o.subscriptionId,
      reference: o.reference,
      sku: o.sku,
      product: o.product,
      status: o.status,
      created_at: o.createdAt.toISOString(),
      domains: o.domains.map((m) => ({
        domain: m.domain,
        build_state: m.buildState,
        mailbox_count: m.mailboxCount,
        forward_to: m.forwardTo,
        workspace_id: m.workspaceId,
        workspace_name: m.workspaceName,
        build_reason: m.buildReason,
        build_problems: m.buildProblems.map((p) => ({ code: p.code, message: p.message })),
      })),
    })),
    has_more: page.hasMore,
  };
}

const server = createServer((req, res) => {
  const ctx = createContext(services, {
    authorization: req.headers.authorization ?? null,
    requestId: randomUUID(),
    clientAddress: req.socket.remoteAddress ?? '',
  });
  void (async () => {
    const caller = await ctx.caller();
    if (!caller) {
      res.writeHead(401, { 'content-type': 'application/json; charset=utf-8' }).end('{"detail":"Send a key."}');
      return;
    }
    const { remaining } = await consumeForKey(services.rateLimits, 'read', caller);
    const [summary, page] = await Promise.all([getDashboardSummary(ctx), listDashboardDomainPage({}, ctx)]);
    const body = JSON.stringify(snakeCase(summary, page));
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-ratelimit-remaining': String(remaining),
      'x-request-id': ctx.requestId,
    });
    res.end(body);
  })().catch((error: unknown) => {
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ detail: String(error) }));
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void services.rateLimits
    .close()
    .catch(() => {})
    .then(() => database.close())
    .finally(() => process.exit(0));
});
