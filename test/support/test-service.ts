import type { AdminSettings } from '../../admin/run-admin-command.js';
import { serviceConfigFromEnv } from '../../config/settings.js';
import { configureLog } from '../../observability/log.js';
import { randomUUID } from 'node:crypto';
import { startService, type RunningService, type StartOptions } from '../../server/start-service.js';
import { CLIENT_REQUEST_ID, type FetchHandler } from '../../server/serve-http.js';
import { seedDemo, type DemoAccount } from '../../admin/seed-demo.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestService extends RunningService {
  /** A demo account made for this test file. */
  readonly demo: DemoAccount;
  seedAccount(): Promise<DemoAccount>;
  /** fetch on the account API with an optional key. */
  api(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  /** fetch on the public listener. */
  pub(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface TestServiceOptions extends StartOptions {
  readonly env?: NodeJS.ProcessEnv;
  /**
   * api() and pub() hand a Request to the listener's handler in-process, as `app.request()` does,
   * instead of fetching over a socket. For tests of what the doors answer; what serve-http.ts adds
   * at the socket (its own request ids, body limits, bad-text refusals, unparsable requests) is
   * tested over real sockets (test/server, test/faults). The listeners still run, so a test may mix both.
   */
  readonly socketless?: boolean;
}

/** Starts the whole service on free ports against a fresh database (PGlite, or PostgreSQL with DATABASE_URL). */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const database: TestDatabase = await createTestDatabase();
  const env = { ...process.env, LOG_LEVEL: 'silent', ...options.env };
  configureLog({ silent: true });
  const config = { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0, databaseUrl: database.databaseUrl, dataDir: database.dataDir };
  const running = await startService(config, { ...options, env, pglite: await database.pglite() });
  // Accounts of one test share the dev zone's verification records: the fixed demo token (test-only).
  const demo = await seedDemo(running.services.db, 'test', new Date(), { sharedDemoToken: true });
  return {
    ...running,
    demo,
    seedAccount: () => seedDemo(running.services.db, 'test', new Date(), { sharedDemoToken: true }),
    api(path, init = {}) {
      const { key = demo.key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      return options.socketless
        ? answerInProcess(running.handlers.api, running.apiUrl + path, { ...rest, headers })
        : fetch(running.apiUrl + path, { ...rest, headers });
    },
    pub: (path, init) =>
      options.socketless ? answerInProcess(running.handlers.public, running.publicUrl + path, init) : fetch(running.publicUrl + path, init),
    async close() {
      await running.stop();
      await database.drop();
    },
  };
}

/**
 * One request through a listener's handler without a socket: a loopback caller, a new request id, and
 * the two headers serve-http.ts puts on every answer, so the answer reads as it would over HTTP.
 */
async function answerInProcess(handler: FetchHandler, url: string, init: RequestInit = {}): Promise<Response> {
  const request = new Request(url, init);
  // serve-http.ts keeps a caller's well-formed X-Request-Id; so does this.
  const sent = request.headers.get('x-request-id');
  const requestId = sent !== null && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
  const response = await handler(request, { requestId, clientAddress: '127.0.0.1' });
  const headers = new Headers(response.headers);
  headers.set('x-request-id', requestId);
  headers.set('x-content-type-options', 'nosniff');
  const body = init.method === 'HEAD' ? null : response.body;
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Runs a GraphQL document on {api_url}/graphql. */
export async function graphql(service: TestService, query: string, variables: Record<string, unknown> = {}, key: string | null = service.demo.key) {
  const response = await service.api('/graphql', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
}

/** The settings admin commands run with in tests (config/settings.ts's defaults). */
export const TEST_ADMIN_SETTINGS: AdminSettings = {
  keyMode: 'test',
  jobLeaseMs: 60_000,
  defaultPlans: [{ sku: 'google-inbox-unwarmed', processorPriceId: null }],
};
