import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Sign-in for assistants (docs/mcp.md, "Sign-in"): the account MCP endpoint answers 401 with a Bearer
 * challenge naming its OAuth 2.0 Protected Resource Metadata (RFC 9728), and serves that metadata,
 * which names the account listener as its authorization server. The whole OAuth flow is
 * test/mcp/mcp-oauth.test.ts.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
});
const postMcp = (authorization?: string) =>
  fetch(`${service.apiUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
    body: initialize,
  });

describe('the 401 of the account MCP endpoint', () => {
  it('without a key: a Bearer challenge with resource_metadata, as the SDK reads it', async () => {
    const response = await postMcp();
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toBe(`Bearer resource_metadata="${service.apiUrl}/.well-known/oauth-protected-resource/mcp"`);
    const params = extractWWWAuthenticateParams(response);
    expect(params.resourceMetadataUrl?.href).toBe(`${service.apiUrl}/.well-known/oauth-protected-resource/mcp`);
    expect(params.error).toBeUndefined();
    expect((await response.json()).detail).toMatch(/Authorization: Bearer/);
  });

  it('with a key not taken: the same challenge with error="invalid_token"', async () => {
    for (const authorization of ['Bearer sk_live_not-a-real-key', 'Basic abc']) {
      const response = await postMcp(authorization);
      expect(response.status, authorization).toBe(401);
      const params = extractWWWAuthenticateParams(response);
      expect(params.error, authorization).toBe('invalid_token');
      expect(params.resourceMetadataUrl?.href).toBe(`${service.apiUrl}/.well-known/oauth-protected-resource/mcp`);
    }
  });

  it('a GET (event stream) without a key is the same 401 with the challenge', async () => {
    const response = await fetch(`${service.apiUrl}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="/);
  });

  it('a valid key still works: API keys are the bearer tokens this endpoint takes', async () => {
    const client = new Client({ name: 'sign-in-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${service.demo.key}` } } }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe('the OAuth 2.0 Protected Resource Metadata (RFC 9728)', () => {
  it('the SDK discovers it from the MCP URL: resource, its authorization server, header bearer tokens, the scopes', async () => {
    const metadata = await discoverOAuthProtectedResourceMetadata(`${service.apiUrl}/mcp`);
    expect(metadata).toEqual({
      resource: `${service.apiUrl}/mcp`,
      authorization_servers: [service.apiUrl],
      resource_name: 'Deliverability account MCP',
      bearer_methods_supported: ['header'],
      scopes_supported: ['read', 'write', 'orders:place'],
      resource_documentation: `${service.apiUrl}/docs`,
    });
  });

  it('is served at the path-aware URL and at the root well-known URL, from any origin, without a key', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${service.apiUrl}${path}`, { headers: { origin: 'http://localhost:6274' } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect((await response.json()).resource).toBe(`${service.apiUrl}/mcp`);
    }
    const preflight = await fetch(`${service.apiUrl}/.well-known/oauth-protected-resource/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/MCP-Protocol-Version/i);
  });

  it('a POST to it is refused with a detail; other well-known paths are 404', async () => {
    const post = await fetch(`${service.apiUrl}/.well-known/oauth-protected-resource/mcp`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect((await post.json()).detail).toMatch(/GET/);
    expect((await fetch(`${service.apiUrl}/.well-known/oauth-protected-resource/graphql`)).status).toBe(404);
  });

  it("the SDK's OAuth client, given no key, reads the challenge and both metadata documents, registers and asks for the person's consent", async () => {
    const asked: string[] = [];
    let authorizationUrl: URL | undefined;
    const client = new Client({ name: 'oauth-test', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), {
      fetch: (input, init) => {
        asked.push(`${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname}`);
        return fetch(input, init);
      },
      authProvider: {
        redirectUrl: 'http://127.0.0.1:9/callback',
        clientMetadata: { redirect_uris: ['http://127.0.0.1:9/callback'], client_name: 'test' },
        clientInformation: () => undefined,
        saveClientInformation: () => undefined,
        tokens: () => undefined,
        saveTokens: () => undefined,
        redirectToAuthorization: (url) => {
          authorizationUrl = url;
        },
        saveCodeVerifier: () => undefined,
        codeVerifier: () => '',
      },
    });
    await expect(client.connect(transport)).rejects.toThrow();
    expect(asked[0]).toBe('POST /mcp');
    expect(asked).toContain('GET /.well-known/oauth-protected-resource/mcp');
    expect(asked).toContain('GET /.well-known/oauth-authorization-server');
    expect(asked).toContain('POST /oauth/register');
    expect(asked.filter((a) => a === 'POST /mcp')).toHaveLength(1);
    expect(authorizationUrl?.origin).toBe(service.apiUrl);
    expect(authorizationUrl?.pathname).toBe('/oauth/authorize');
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl?.searchParams.get('resource')).toBe(`${service.apiUrl}/mcp`);
  });
});
