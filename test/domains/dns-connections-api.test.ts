import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { decryptSecret } from '../../resolvers/secrets/encrypt-secret.js';
import { graphql, startTestService, type TestService } from '../support/test-service.js';

/**
 * /v1/dns-connections through the three doors: create answers the connection without its secret,
 * list never shows one, delete removes it; inputs are checked field by field; a DNS server on a
 * private address is refused (SSRF) unless the operator allows it; the secret is stored sealed.
 */
let service: TestService;
let privateService: TestService;
const secret = randomBytes(32).toString('base64');
const token = `cf${randomBytes(20).toString('hex')}`;

async function send(target: TestService, method: string, path: string, body?: unknown, key?: string) {
  const response = await target.api(path, {
    method,
    ...(key && { key }),
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  service = await startTestService({ socketless: true });
  privateService = await startTestService({ env: { DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1' } });
});
afterAll(async () => {
  await service?.close();
  await privateService?.close();
});

describe('DNS connections on REST', () => {
  it('create answers the connection without its secret; list and delete follow; the secret is stored sealed', async () => {
    const created = await send(service, 'POST', '/v1/dns-connections', {
      kind: 'rfc2136',
      label: 'office BIND',
      server: '93.184.215.14',
      port: 5353,
      key_name: 'update-key.',
      algorithm: 'HMAC-SHA512',
      secret,
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      connection_id: expect.any(Number),
      kind: 'rfc2136',
      label: 'office BIND',
      server: '93.184.215.14',
      port: 5353,
      key_name: 'update-key',
      algorithm: 'hmac-sha512',
      created_at: expect.any(String),
    });
    expect(created.text).not.toContain(secret);
    const id = created.body.connection_id;

    const cloudflare = await send(service, 'POST', '/v1/dns-connections', { kind: 'cloudflare', api_token: token });
    expect(cloudflare.body).toMatchObject({ kind: 'cloudflare', server: null, port: null, key_name: null, algorithm: null, label: null });
    expect(cloudflare.text).not.toContain(token);

    const listed = await send(service, 'GET', '/v1/dns-connections');
    expect(listed.body.map((c: { connection_id: number }) => c.connection_id)).toEqual([id, cloudflare.body.connection_id]);
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain(token);

    const row = await service.services.db.selectFrom('dns_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret_sealed).toMatch(/^v1\./);
    expect(row.secret_sealed).not.toContain(secret);
    expect(row.settings).not.toContain(secret);
    expect(decryptSecret(service.services.secretsKey, row.secret_sealed, `dns-connection:${service.demo.accountId}`)).toBe(secret);
    // Sealed for this account: the same text does not open as another account's.
    expect(() => decryptSecret(service.services.secretsKey, row.secret_sealed, `dns-connection:${service.demo.accountId + 1}`)).toThrow(/did not open/);

    expect((await send(service, 'DELETE', `/v1/dns-connections/${id}`)).body).toEqual({ connection_id: id, deleted: true });
    const gone = await service.services.db.selectFrom('dns_connections').select(['secret_sealed', 'deleted_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(gone.secret_sealed).toBe('');
    expect(gone.deleted_at).not.toBeNull();
    const again = await send(service, 'DELETE', `/v1/dns-connections/${id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'dns_connection_not_found', detail: expect.stringMatching(/GET \/v1\/dns-connections/) });
    expect((await send(service, 'GET', '/v1/dns-connections')).body).toHaveLength(1);
  });

  it('refuses bad input field by field, each with a sentence, and never echoes the secret', async () => {
    const base = { kind: 'rfc2136', server: '93.184.215.14', key_name: 'update-key', secret };
    const cases: [Record<string, unknown>, number, string, RegExp][] = [
      [{ ...base, kind: 'route53' }, 400, 'invalid_kind', /rfc2136, cloudflare/],
      [{ ...base, server: 'not a host!' }, 400, 'invalid_server', /IP address or host name/],
      [{ ...base, server: undefined }, 400, 'invalid_server', /Send "server"/],
      [{ ...base, port: 0 }, 400, 'invalid_port', /1 to 65535/],
      [{ ...base, port: 70000 }, 400, 'invalid_port', /1 to 65535/],
      [{ ...base, key_name: 'bad key' }, 400, 'invalid_key_name', /key_name/],
      [{ ...base, algorithm: 'hmac-md5' }, 400, 'invalid_algorithm', /hmac-sha256, hmac-sha512/],
      [{ ...base, secret: 'not*base64' }, 400, 'invalid_secret', /base64/],
      [{ ...base, secret: 'c2hvcnQ=' }, 400, 'invalid_secret', /decodes to 5 bytes/],
      [{ ...base, api_token: token }, 400, 'field_not_for_kind', /"api_token" is not used by rfc2136/],
      [{ kind: 'cloudflare', api_token: 'short' }, 400, 'invalid_api_token', /Zone > DNS > Edit/],
      [{ kind: 'cloudflare', api_token: token, secret }, 400, 'field_not_for_kind', /"secret" is not used by cloudflare/],
      [{ ...base, label: 'x'.repeat(101) }, 400, 'invalid_label', /100 characters/],
    ];
    for (const [body, status, code, detail] of cases) {
      const refused = await send(service, 'POST', '/v1/dns-connections', body);
      expect(refused.status, JSON.stringify(body)).toBe(status);
      expect(refused.body, code).toMatchObject({ code, detail: expect.stringMatching(detail) });
      expect(refused.text).not.toContain(secret);
      expect(refused.text).not.toContain(token);
    }
    const unknownField = await send(service, 'POST', '/v1/dns-connections', { ...base, password: 'x' });
    expect(unknownField.status).toBeGreaterThanOrEqual(400);
    expect(unknownField.status).toBeLessThan(500);
    expect(unknownField.body.detail).toMatch(/password/);
  });

  it('refuses DNS servers on addresses this service must not connect to (SSRF), and accepts them where the operator allows', async () => {
    for (const server of ['127.0.0.1', '10.0.0.53', '169.254.169.254', '192.168.1.1', '::1', 'fd00::53', '100.64.0.1']) {
      const refused = await send(service, 'POST', '/v1/dns-connections', { kind: 'rfc2136', server, key_name: 'k', secret });
      expect(refused.status, server).toBe(422);
      expect(refused.body).toMatchObject({ code: 'dns_server_refused', detail: expect.stringMatching(/not a public address/) });
    }
    // A single-label name (localhost) is not a DNS server's host name at all.
    expect((await send(service, 'POST', '/v1/dns-connections', { kind: 'rfc2136', server: 'localhost', key_name: 'k', secret })).body.code).toBe(
      'invalid_server',
    );
    const allowed = await send(privateService, 'POST', '/v1/dns-connections', { kind: 'rfc2136', server: '127.0.0.1', key_name: 'k', secret });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ server: '127.0.0.1', port: 53, algorithm: 'hmac-sha256' });
  });

  it('needs scope write to create and delete, read to list; another account sees none of them', async () => {
    const { key: readKey } = await createApiKey(service.services.db, service.demo.accountId, ['read']);
    const { key: writeKey } = await createApiKey(service.services.db, service.demo.accountId, ['write']);
    const refused = await send(service, 'POST', '/v1/dns-connections', { kind: 'cloudflare', api_token: token }, readKey);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/write/);
    expect((await send(service, 'GET', '/v1/dns-connections', undefined, readKey)).status).toBe(200);
    expect((await send(service, 'GET', '/v1/dns-connections', undefined, writeKey)).status).toBe(403);
    const mine = await send(service, 'POST', '/v1/dns-connections', { kind: 'cloudflare', api_token: token }, writeKey);
    expect(mine.status).toBe(200);
    const other = await service.seedAccount();
    expect((await send(service, 'GET', '/v1/dns-connections', undefined, other.key)).body).toEqual([]);
    const foreign = await send(service, 'DELETE', `/v1/dns-connections/${mine.body.connection_id}`, undefined, other.key);
    expect(foreign.status).toBe(404);
  });
});

describe('DNS connections on GraphQL and MCP', () => {
  it('GraphQL creates, lists and deletes with enums, and has no field for the secret', async () => {
    const made = await graphql(
      service,
      `mutation ($secret: String!) { createDnsConnection(input: {kind: rfc2136, server: "93.184.215.14", keyName: "gql-key", algorithm: hmac_sha256, secret: $secret}) { connectionId kind algorithm keyName port } }`,
      { secret },
    );
    expect(made.body.data.createDnsConnection).toMatchObject({ kind: 'rfc2136', algorithm: 'hmac_sha256', keyName: 'gql-key', port: 53 });
    const asked = await graphql(service, '{ dnsConnections { connectionId secret } }');
    expect(asked.body.errors?.[0]?.message).toMatch(/Cannot query field "secret"/);
    const listed = await graphql(service, '{ dnsConnections { connectionId kind } }');
    expect(listed.body.data.dnsConnections).toContainEqual({ connectionId: made.body.data.createDnsConnection.connectionId, kind: 'rfc2136' });
    const deleted = await graphql(service, `mutation { deleteDnsConnection(connectionId: ${made.body.data.createDnsConnection.connectionId}) { deleted } }`);
    expect(deleted.body.data.deleteDnsConnection).toEqual({ deleted: true });
  });

  it('MCP has create, list and delete tools answering as REST does', async () => {
    const client = new Client({ name: 'dns-connections-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${privateService.apiUrl}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${privateService.demo.key}` } },
      }),
    );
    try {
      const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as { type: string; text: string }[])[0]!.text;
      const made = await client.callTool({ name: 'create_dns_connection', arguments: { kind: 'cloudflare', api_token: token, label: 'cf' } });
      expect(made.isError).toBeFalsy();
      expect(text(made)).not.toContain(token);
      const connection = JSON.parse(text(made));
      expect(connection).toMatchObject({ kind: 'cloudflare', label: 'cf' });
      const listed = JSON.parse(text(await client.callTool({ name: 'list_dns_connections', arguments: {} })));
      expect(listed).toContainEqual(expect.objectContaining({ connection_id: connection.connection_id }));
      const refused = await client.callTool({
        name: 'create_dns_connection',
        arguments: { kind: 'rfc2136', server: '127.0.0.1', port: 0, key_name: 'k', secret },
      });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/1 to 65535/);
      const deleted = JSON.parse(text(await client.callTool({ name: 'delete_dns_connection', arguments: { connection_id: connection.connection_id } })));
      expect(deleted).toEqual({ connection_id: connection.connection_id, deleted: true });
    } finally {
      await client.close();
    }
  });
});
