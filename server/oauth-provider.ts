import Provider, { errors, type Configuration } from 'oidc-provider';
import type { Services } from '../resolvers/context.js';
import { SCOPES } from '../resolvers/auth/scopes.js';
import { scopesOfRole } from '../resolvers/people/permissions.js';
import { isRole } from '../resolvers/people/users.js';
import { oauthAdapterFactory } from '../resolvers/oauth/oauth-adapter.js';
import { loadOAuthSecrets } from '../resolvers/oauth/oauth-keys.js';
import { findUserWithAccount } from '../db/users.js';
import { mcpResource } from '../mcp/protected-resource.js';
import { errorPage } from '../web/oauth-consent-page.js';
import { log } from '../observability/log.js';
import { INTERACTION_PREFIX, OAUTH_ROUTES } from './oauth-paths.js';

const HOUR = 3600;
const DAY = 24 * HOUR;

/** How long what the authorization server issues lives (seconds). */
export const OAUTH_TTL = {
  AccessToken: HOUR,
  AuthorizationCode: 60,
  RefreshToken: 30 * DAY,
  Grant: 365 * DAY,
  Interaction: HOUR,
  Session: DAY,
  IdToken: HOUR,
} as const;

/**
 * The account listener as the OAuth 2.1 authorization server of its MCP endpoint (docs/mcp.md,
 * "Sign-in"), on oidc-provider: authorization code with PKCE (S256 only, always required), open
 * dynamic client registration (RFC 7591) for public clients with https or loopback redirect URIs,
 * resource indicators (RFC 8707: every access token is an opaque token for `{api_url}/mcp` and holds
 * our scopes), refresh tokens that rotate (a used one is refused, and its grant revoked, if it comes
 * back), and revocation (RFC 7009). Everything it keeps is in the database (oauth_records, oauth_keys).
 * The person signs in to the portal and picks the scopes on our consent page (server/oauth-routes.ts).
 */
export async function createOAuthProvider(services: Services, issuer: string, trustProxy: boolean): Promise<Provider> {
  const secrets = await loadOAuthSecrets(services.db, services.secretsKey);
  const resource = mcpResource(issuer);
  const configuration: Configuration = {
    adapter: oauthAdapterFactory(services.db),
    jwks: secrets.jwks,
    cookies: {
      keys: secrets.cookieKeys,
      names: { session: 'oauth_session', interaction: 'oauth_interaction', resume: 'oauth_interaction_resume' },
    },
    scopes: ['openid', 'offline_access', ...SCOPES],
    claims: { openid: ['sub'] },
    // The authorization server's "account" is the person (our user id): gone once they are removed,
    // so neither a refresh nor an authorization can go on in their name.
    // The role is read at every use (an authorization, a code exchange, a refresh), so what a token
    // may hold follows the person's role now (getResourceServerInfo below).
    async findAccount(_ctx, id) {
      if (!/^\d{1,15}$/.test(id)) return undefined;
      const person = await findUserWithAccount(services.db, Number(id)).catch(() => undefined);
      return person ? { accountId: id, role: person.role, claims: () => ({ sub: id }) } : undefined;
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo(ctx, indicator) {
          if (indicator !== resource) {
            throw new errors.InvalidTarget(`This authorization server issues tokens for ${resource} only; send that as "resource" (or leave it out).`);
          }
          // A token's scopes are cut to what the person's role holds now: a refresh after a demotion
          // answers (and its access token holds) no orders:place. Before anyone is known, all of ours.
          const scope = scopesOfRoleIn(ctx.oidc.account).join(' ');
          return { scope, audience: resource, accessTokenFormat: 'opaque', accessTokenTTL: OAUTH_TTL.AccessToken };
        },
      },
    },
    pkce: { required: () => true },
    responseTypes: ['code'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    extraClientMetadata: {
      properties: ['redirect_uris', 'token_endpoint_auth_method'],
      validator(_ctx, key, value) {
        if (key === 'token_endpoint_auth_method' && value !== undefined && value !== 'none') {
          throw new errors.InvalidClientMetadata(
            'Only public clients may register here: send "token_endpoint_auth_method": "none" (or leave it out) and prove each authorization with PKCE.',
          );
        }
        if (key === 'redirect_uris') {
          for (const uri of Array.isArray(value) ? value : []) {
            if (typeof uri !== 'string' || !allowedRedirect(uri)) {
              // A description starting "redirect_uris" makes it RFC 7591's invalid_redirect_uri.
              throw new errors.InvalidClientMetadata(
                `redirect_uris: ${String(uri)} is refused: use an https:// URL, or http:// on 127.0.0.1, [::1] or localhost (a loopback redirect for an assistant on this machine).`,
              );
            }
          }
        }
      },
    },
    rotateRefreshToken: true,
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Tokens outlive the sign-in that made them: an assistant keeps working after the person signs out
    // of the portal, until its grant is revoked or the person removed.
    expiresWithSession: () => false,
    // Every authorization asks the person again (no silent re-use of an earlier consent); the grant
    // is the one the consent page just made.
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    ttl: { ...OAUTH_TTL },
    routes: OAUTH_ROUTES,
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PREFIX}${interaction.uid}` },
    clientBasedCORS: () => true,
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = errorPage(describeOAuthError(out.error, out.error_description));
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = trustProxy;
  // Its own 500s (the database away mid-request, a bug) go to our log; the caller gets server_error with a detail.
  provider.on('server_error', (_ctx: unknown, error: unknown) => {
    log('error', 'oauth server error', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  });
  // Every JSON refusal carries `detail` (our own rule) beside RFC 6749's error and error_description.
  provider.use(async (ctx, next) => {
    await next();
    addDetail(ctx);
  });
  return provider;
}

/** Our scopes for the person's role (the account findAccount answered), or all of them before anyone is known. */
function scopesOfRoleIn(account: unknown): readonly string[] {
  const role: unknown = typeof account === 'object' && account !== null ? Reflect.get(account, 'role') : undefined;
  return isRole(role) ? scopesOfRole(role) : SCOPES;
}

function addDetail(ctx: { status: number; body: unknown }): void {
  const body: unknown = ctx.body;
  if (ctx.status < 400 || typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return;
  const error: unknown = Reflect.get(body, 'error');
  const description: unknown = Reflect.get(body, 'error_description');
  if (typeof error !== 'string') return;
  ctx.body = { ...body, detail: describeOAuthError(error, typeof description === 'string' ? description : undefined) };
}

/** A sentence saying what to change, from an OAuth error code and its description. */
export function describeOAuthError(error: string, description: string | undefined): string {
  const said = description ? `${description.replace(/\.?$/, '.')} ` : '';
  const advice: Record<string, string> = {
    invalid_client: 'Register the client again (POST /oauth/register) and use the client_id it answers.',
    invalid_grant:
      'Start the sign-in again: the code or refresh token is used, expired or revoked, or the PKCE code_verifier does not match the code_challenge.',
    invalid_redirect_uri: 'Use a redirect URI the client registered, exactly as registered.',
    invalid_request: 'Check the parameters against the authorization server metadata (/.well-known/oauth-authorization-server).',
    invalid_scope: `Ask for the scopes ${SCOPES.join(', ')} only.`,
    invalid_target: 'Send the MCP endpoint as "resource", or leave it out.',
    invalid_client_metadata: 'Fix the registration metadata and register again.',
    access_denied: 'The person declined; ask them again if they meant to allow it.',
  };
  return `${said}${advice[error] ?? 'See docs/mcp.md, "Sign-in", for how an assistant signs in.'}`.trim();
}

function allowedRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}
