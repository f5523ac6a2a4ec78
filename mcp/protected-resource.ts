import { SCOPES } from '../resolvers/auth/scopes.js';
import { jsonResponse } from '../operations/json-response.js';

/** RFC 9728's well-known prefix: a resource's metadata sits at this path followed by the resource's own path. */
export const PROTECTED_RESOURCE_PREFIX = '/.well-known/oauth-protected-resource';

/** The account MCP endpoint as an OAuth protected resource: its identifier is its URL. */
export function mcpResource(apiUrl: string): string {
  return `${apiUrl.replace(/(?<!\/)\/+$/, '')}/mcp`;
}

/** Where a client reads the resource's metadata (RFC 9728 section 3.1: the well-known prefix between host and path). */
export function protectedResourceMetadataUrl(apiUrl: string): string {
  const resource = new URL(mcpResource(apiUrl));
  return `${resource.origin}${PROTECTED_RESOURCE_PREFIX}${resource.pathname}`;
}

/**
 * The OAuth 2.0 Protected Resource Metadata (RFC 9728) of the account MCP endpoint. Its authorization
 * server is the account listener itself (server/oauth-provider.ts; RFC 8414 metadata at
 * {api_url}/.well-known/oauth-authorization-server): an assistant signs in there, or sends an API key
 * made in the portal, both in the Authorization header (docs/mcp.md, "Sign-in").
 */
export function protectedResourceMetadata(apiUrl: string): Record<string, unknown> {
  const base = apiUrl.replace(/(?<!\/)\/+$/, '');
  return {
    resource: mcpResource(apiUrl),
    authorization_servers: [base],
    resource_name: 'Deliverability account MCP',
    bearer_methods_supported: ['header'],
    scopes_supported: [...SCOPES],
    resource_documentation: `${base}/docs`,
  };
}

/**
 * The challenge a 401 of the account MCP endpoint carries (RFC 6750 section 3, RFC 9728 section
 * 5.1): where the metadata is, and `invalid_token` when a token was sent and not taken.
 */
export function mcpChallenge(apiUrl: string, sentKey: boolean): string {
  const parts = [`resource_metadata="${protectedResourceMetadataUrl(apiUrl)}"`];
  if (sentKey) parts.push('error="invalid_token"', 'error_description="The API key or access token is not recognised, has expired or has been revoked."');
  return `Bearer ${parts.join(', ')}`;
}

/**
 * GET {api_url}/.well-known/oauth-protected-resource/mcp (and the same without /mcp, where clients
 * also look): the metadata, readable from any origin (an assistant in a browser, MCP Inspector).
 * null for any other path.
 */
export function protectedResourceRoute(request: Request, path: string, apiUrl: string, requestId: string): Response | null {
  const own = new URL(protectedResourceMetadataUrl(apiUrl)).pathname;
  if (path !== own && path !== PROTECTED_RESOURCE_PREFIX) return null;
  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, OPTIONS', 'Access-Control-Allow-Headers': 'MCP-Protocol-Version' };
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return jsonResponse(
      405,
      { detail: `Use GET on ${path}: it is the MCP endpoint's OAuth protected resource metadata.`, code: 'method_not_allowed', request_id: requestId },
      { Allow: 'GET', ...cors },
    );
  }
  return jsonResponse(200, protectedResourceMetadata(apiUrl), { 'cache-control': 'public, max-age=3600', 'X-Request-Id': requestId, ...cors });
}
