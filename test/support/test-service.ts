import { serviceConfigFromEnv } from '../../resolvers/service-config.js';
import { startService, type RunningService, type StartOptions } from '../../server/start-service.js';
import { seedDemo, type DemoAccount } from '../../db/seed-demo.js';
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

/** Starts the whole service on free ports against a fresh database (PGlite, or PostgreSQL with DATABASE_URL). */
export async function startTestService(options: StartOptions & { env?: NodeJS.ProcessEnv } = {}): Promise<TestService> {
  const database: TestDatabase = await createTestDatabase();
  const env = { ...process.env, LOG_LEVEL: 'silent', ...options.env };
  process.env.LOG_LEVEL = 'silent';
  const config = { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0, databaseUrl: database.databaseUrl, dataDir: database.dataDir };
  const running = await startService(config, { ...options, env });
  const demo = await seedDemo(running.services.db);
  return {
    ...running,
    demo,
    seedAccount: () => seedDemo(running.services.db),
    api(path, init = {}) {
      const { key = demo.key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      return fetch(running.apiUrl + path, { ...rest, headers });
    },
    pub: (path, init) => fetch(running.publicUrl + path, init),
    async close() {
      await running.stop();
      await database.drop();
    },
  };
}

/** Runs a GraphQL document on {api_url}/graphql. */
export async function graphql(service: TestService, query: string, variables: Record<string, unknown> = {}, key: string | null = service.demo.key) {
  const response = await service.api('/graphql', {
    method: 'POST', key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
}
