import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { openDatabase } from '../../db/open-database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { seedDemo } from '../../admin/seed-demo.js';
import { hashKey, revokeApiKey } from '../../resolvers/auth/api-keys.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { migratedDataDir } from '../support/test-database.js';

/**
 * A real server process with the default logging (LOG_LEVEL unset: every request is logged as a JSON
 * line) is sent keys in every place a caller might put one — the Authorization header of REST,
 * /graphql and MCP, a malformed header, a query string, a JSON body, a revoked key — and its whole
 * stdout and stderr are searched for them afterwards.
 *
 * The data folder is seeded before the server starts, so it does not print the one-time demo key of
 * a fresh embedded database (that banner is meant to show a key, once, to the person starting it).
 */
describe('keys never appear in the logs', () => {
  let dir: string;
  let server: SpawnedServer;
  let key: string;
  let revoked: string;
  beforeAll(async () => {
    dir = migratedDataDir('proof-keys-');
    const database = await openDatabase({ dataDir: dir });
    try {
      await migrateToLatest(database.db);
      key = (await seedDemo(database.db, 'test')).key;
      const other = await seedDemo(database.db, 'test');
      revoked = other.key;
      await revokeApiKey(database.db, other.keyId);
    } finally {
      await database.close();
    }
    server = await spawnServer({ env: { DATA_DIR: dir } });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('after keyed requests on every door, neither the key, its secret part nor its hash is in stdout or stderr', async () => {
    expect(server.stdout()).not.toMatch(/demo account was created/); // the banner case is not this test
    const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
    const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const statuses: number[] = [];
    const call = async (url: string, init: RequestInit = {}) => {
      const response = await fetch(url, init);
      statuses.push(response.status);
      await response.arrayBuffer();
    };
    await call(`${server.apiUrl}/v1/portal/dashboard`, { headers: bearer(key) });
    await call(`${server.apiUrl}/v1/portal/dashboard?api_key=${key}&key=${encodeURIComponent(key)}`);
    await call(`${server.apiUrl}/v1/portal/nowhere?key=${key}`, { headers: bearer(key) });
    await call(`${server.apiUrl}/v1/portal/dashboard`, { headers: bearer(`${key}x`) });
    await call(`${server.apiUrl}/v1/portal/dashboard`, { headers: { authorization: key } });
    await call(`${server.apiUrl}/v1/portal/dashboard`, { headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } });
    await call(`${server.apiUrl}/v1/portal/dashboard`, { headers: bearer(revoked) });
    await call(`${server.apiUrl}/v1/portal/workspaces`, { method: 'POST', headers: { ...bearer(key), ...json }, body: JSON.stringify({ name: key }) });
    await call(`${server.apiUrl}/v1/portal/workspaces`, { method: 'POST', headers: { ...bearer(key), ...json }, body: `{"name": "${key}"` });
    await call(`${server.apiUrl}/graphql`, {
      method: 'POST',
      headers: { ...bearer(key), ...json },
      body: JSON.stringify({ query: '{ paymentMethod { onFile } }' }),
    });
    await call(`${server.apiUrl}/graphql`, { method: 'POST', headers: { ...bearer(key), ...json }, body: JSON.stringify({ query: `{ ${key} }` }) });
    await call(`${server.apiUrl}/mcp`, {
      method: 'POST',
      headers: { ...bearer(key), ...json },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'keys-test', version: '1' } },
      }),
    });
    await call(`${server.apiUrl}/mcp`, {
      method: 'POST',
      headers: { ...bearer(revoked), ...json },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    await call(`${server.publicUrl}/.platform/functions/check-dns?domain=${key}`, { headers: bearer(key) });
    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(401);

    expect(await server.stop()).toBe(0);
    const output = server.stdout() + server.stderr();
    // The structured log did run: one JSON line per request, each with its request id.
    const requests = server.logLines().filter((l) => l.message === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(statuses.length);
    for (const line of requests) expect(typeof line.request_id).toBe('string');

    for (const secret of [key, revoked]) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain(secret.slice(14, 30)); // the part after the displayed prefix
      expect(output).not.toContain(encodeURIComponent(secret));
      expect(output).not.toContain(hashKey(secret));
    }
  }, 60_000);
});
