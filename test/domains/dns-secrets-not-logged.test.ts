import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../db/open-database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { seedDemo } from '../../admin/seed-demo.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { migratedDataDir } from '../support/test-database.js';

/**
 * A real server process with the default logging is sent DNS connection secrets on every door, in
 * accepted and refused creations, and its whole stdout and stderr are searched for them afterwards.
 */
describe('DNS connection secrets never appear in the logs', () => {
  let dir: string;
  let server: SpawnedServer;
  let key: string;
  beforeAll(async () => {
    dir = migratedDataDir('dns-secrets-');
    const database = await openDatabase({ dataDir: dir });
    try {
      await migrateToLatest(database.db);
      key = (await seedDemo(database.db, 'test')).key;
    } finally {
      await database.close();
    }
    server = await spawnServer({ env: { DATA_DIR: dir, DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1' } });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('after creations on REST, GraphQL and MCP, accepted and refused, no secret or token is in stdout or stderr', async () => {
    const secret = randomBytes(32).toString('base64');
    const token = `cf${randomBytes(24).toString('hex')}`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const statuses: number[] = [];
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${server.apiUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      statuses.push(response.status);
      await response.arrayBuffer();
    };
    const rfc2136 = { kind: 'rfc2136', server: '127.0.0.1', key_name: 'k', secret };
    await post('/v1/dns-connections', rfc2136);
    await post('/v1/dns-connections', { ...rfc2136, port: 0 });
    await post('/v1/dns-connections', { ...rfc2136, secret: `${secret}*` });
    await post('/v1/dns-connections', { ...rfc2136, api_token: token });
    await post('/v1/dns-connections', { kind: 'cloudflare', api_token: token });
    await post('/v1/dns-connections', { kind: 'cloudflare', api_token: `${token}!` });
    await post('/graphql', {
      query: 'mutation ($s: String!) { createDnsConnection(input: {kind: rfc2136, server: "127.0.0.1", keyName: "k", secret: $s}) { connectionId } }',
      variables: { s: secret },
    });
    await post('/graphql', {
      query: 'mutation ($s: String!) { createDnsConnection(input: {kind: nope, secret: $s}) { connectionId } }',
      variables: { s: secret },
    });
    await post('/mcp', {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    await post('/mcp', {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'create_dns_connection', arguments: { kind: 'cloudflare', api_token: token } },
    });
    await post('/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'create_dns_connection', arguments: { ...rfc2136, port: 99999 } } });
    expect(statuses.slice(0, 6)).toEqual([200, 400, 400, 400, 200, 400]);

    expect(await server.stop()).toBe(0);
    const output = server.stdout() + server.stderr();
    expect(server.logLines().filter((l) => l.message === 'request').length).toBeGreaterThanOrEqual(statuses.length);
    for (const value of [secret, token, secret.slice(8, 30), token.slice(8, 30), encodeURIComponent(secret)]) expect(output).not.toContain(value);
  }, 60_000);
});
