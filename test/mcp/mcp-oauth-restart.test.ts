import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { serviceConfigFromEnv } from '../../config/settings.js';
import { configureLog } from '../../observability/log.js';
import { startService, type RunningService } from '../../server/start-service.js';
import { seedDemo } from '../../admin/seed-demo.js';
import { createUser } from '../../resolvers/people/users.js';
import { createTestDatabase, usingPostgres, type TestDatabase, migratedDataDir } from '../support/test-database.js';
import { consentInBrowser, CookieBrowser, TestAssistant } from '../support/mcp-oauth-assistant.js';

/**
 * What the MCP sign-in keeps is in the database (oauth_records, oauth_keys), not in the process: a
 * service stopped and started again on the same database (PGlite on disk, or PostgreSQL) still takes
 * the assistant's access token, refreshes it, and signs with the same keys.
 */
let database: TestDatabase;
let dataDir: string | undefined;
let config: ReturnType<typeof serviceConfigFromEnv>;
let running: RunningService | undefined;

/** A free port, so the service's address (the issuer and the resource) is the same after the restart. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  configureLog({ silent: true });
  database = await createTestDatabase();
  dataDir = usingPostgres ? undefined : migratedDataDir('oauth-restart-');
  const port = await freePort();
  const env = { ...process.env, LOG_LEVEL: 'silent', JOBS: 'off', API_PORT: String(port), API_URL: `http://127.0.0.1:${port}` };
  config = { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: port, databaseUrl: database.databaseUrl, dataDir: dataDir ?? 'memory' };
});
afterAll(async () => {
  await running?.stop();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const REDIRECT = 'http://127.0.0.1:9/callback';

describe('the MCP sign-in survives a restart', () => {
  it("an assistant's tokens, its connection and the signing keys outlive the process", async () => {
    running = await startService(config);
    const apiUrl = running.apiUrl;
    const demo = await seedDemo(running.services.db, 'test', new Date(), { sharedDemoToken: true });
    await createUser(running.services.db, demo.accountId, 'restart@example.com', 'restart test password', 'owner');
    const signedIn = await fetch(`${apiUrl}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'restart@example.com', password: 'restart test password' }),
    });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;

    const assistant = new TestAssistant(REDIRECT, 'Restart assistant');
    const mcp = new URL(`${apiUrl}/mcp`);
    const transport = new StreamableHTTPClientTransport(mcp, { authProvider: assistant });
    await expect(new Client({ name: 'restart', version: '1' }).connect(transport)).rejects.toThrow(UnauthorizedError);
    const code = await consentInBrowser(new CookieBrowser(apiUrl, cookie), assistant.authorizationUrl!, REDIRECT, ['read']);
    await transport.finishAuth(code);
    const keysBefore = await (await fetch(`${apiUrl}/oauth/jwks`)).json();
    const tokensBefore = assistant.saved!;

    await running.stop();
    running = await startService(config);
    expect(running.apiUrl).toBe(apiUrl);

    // The access token is still taken; the refresh rotates; the signing key is the same one.
    const client = new Client({ name: 'restart', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: assistant }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('get_dashboard');
    await client.close();
    expect(await auth(assistant, { serverUrl: mcp })).toBe('AUTHORIZED');
    expect(assistant.saved!.refresh_token).not.toBe(tokensBefore.refresh_token);
    expect(assistant.saved!.scope).toBe('read');
    const keysAfter = await (await fetch(`${apiUrl}/oauth/jwks`)).json();
    expect(keysAfter.keys.map((k: { kid: string }) => k.kid)).toEqual(keysBefore.keys.map((k: { kid: string }) => k.kid));
    expect(keysAfter.keys[0]).not.toHaveProperty('d');
    // Two starts, the first migrating an empty database on disk.
  }, 180_000);
});
