import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Services } from '../resolvers/context.js';
import type { NodeHandler } from './serve-http.js';
import { INTERACTION_PREFIX, OAUTH_ROUTES } from './oauth-paths.js';
import { authenticateSession } from '../resolvers/people/authenticate-session.js';
import { sessionTokenOf } from '../resolvers/people/sessions.js';
import { roleRefusal, scopesOfRole } from '../resolvers/people/permissions.js';
import { isScope, SCOPES, type Scope } from '../resolvers/auth/scopes.js';
import { findUserWithAccount } from '../db/users.js';
import { restAnswerOf } from '../rest/rest-error-words.js';
import { clientAddressOf } from './client-address.js';
import { mcpResource } from '../mcp/protected-resource.js';
import { CONSENT_PAGE_HEADERS, consentPage, errorPage, type ConsentScopeView } from '../web/oauth-consent-page.js';

/** RFC 8414's well-known path; oidc-provider serves the same document as OpenID discovery. */
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';
const OPENID_DISCOVERY_PATH = '/.well-known/openid-configuration';

const SCOPE_LABELS: Record<Scope, string> = {
  read: 'read the account: domains, orders, billing, analytics, settings',
  write: "change the account's domains, settings and webhooks",
  'orders:place': 'place orders and save a card (spends money)',
};

/** The OIDC scopes a client may ask beside ours; granted as asked, they give no access to the account. */
const OIDC_SCOPES = new Set(['openid', 'offline_access']);

const MAX_FORM_BYTES = 8192;

export interface OAuthRoutes {
  /** The Node handler for an authorization server path (/oauth/..., the two well-known documents), or null. */
  readonly route: (req: IncomingMessage) => NodeHandler | null;
  /** The issuer answering on `apiUrl` (the resource metadata's `authorization_servers`). */
  readonly issuerFor: (apiUrl: string) => string;
}

/**
 * The authorization server's paths on the account listener, and its consent page: a person signed in
 * to the portal (the svc_session cookie) sees the assistant's name and ticks the scopes, within their
 * role; one not signed in is sent to the portal's sign-in and back. The provider is made on first use,
 * for the issuer the listener is reached at (API_URL; a listener on port 0, as in tests, its own address).
 */
export function createOAuthRoutes(services: Services, trustedProxies: ReadonlySet<string>): OAuthRoutes {
  const trustProxy = trustedProxies.size > 0;
  const providers = new Map<string, Promise<Provider>>();
  const handlers = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const issuerFor = (apiUrl: string) => apiUrl.replace(/(?<!\/)\/+$/, '');
  const issuerOf = (req: IncomingMessage) => (services.config.apiPort === 0 ? `http://${hostOf(req)}` : issuerFor(services.config.apiUrl));
  const providerFor = (issuer: string) => {
    let made = providers.get(issuer);
    if (!made) {
      // oidc-provider (with Koa and jose) loads on the first sign-in request, not at every start.
      made = import('./oauth-provider.js').then(({ createOAuthProvider }) => createOAuthProvider(services, issuer, trustProxy));
      // A failed start (the database away) is tried again on the next request.
      made.catch(() => providers.delete(issuer));
      providers.set(issuer, made);
    }
    return made;
  };

  const byProvider: NodeHandler = async (req, res) => {
    const provider = await providerFor(issuerOf(req));
    const path = pathOf(req);
    if (path === OAUTH_ROUTES.registration && req.method === 'POST') {
      // Registration is open to anyone: each client address may register a few clients an hour.
      const address = clientAddressOf(req.socket.remoteAddress ?? '', headerOf(req, 'x-forwarded-for'), trustedProxies);
      try {
        await services.rateLimits.consume('oauthRegistration', address);
      } catch (thrown) {
        const error = restAnswerOf(thrown);
        if (!error) throw thrown;
        const retryAfter = typeof error.extras.retry_after === 'number' ? error.extras.retry_after : 60;
        res.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(retryAfter) });
        res.end(
          JSON.stringify({
            error: 'temporarily_unavailable',
            error_description: 'Too many client registrations from this address.',
            detail: `Too many client registrations from this address; register once and keep the client_id (retry in ${retryAfter} s).`,
          }),
        );
        return;
      }
    }
    if (path === AUTHORIZATION_SERVER_METADATA_PATH) req.url = OPENID_DISCOVERY_PATH + (req.url ?? '').slice(path.length);
    let handler = handlers.get(provider);
    if (!handler) handlers.set(provider, (handler = provider.callback()));
    await handler(req, res);
  };

  const interaction: NodeHandler = async (req, res) => {
    const issuer = issuerOf(req);
    const provider = await providerFor(issuer);
    const uid = pathOf(req).slice(INTERACTION_PREFIX.length);
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      return sendPage(
        res,
        400,
        errorPage(
          'This sign-in request is unknown or has expired (it lasts an hour, in the browser that started it); start connecting from the assistant again.',
        ),
      );
    }
    if (details.uid !== uid) return sendPage(res, 400, errorPage('This sign-in page belongs to another request; start connecting from the assistant again.'));
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.writeHead(405, { allow: 'GET, POST', ...CONSENT_PAGE_HEADERS });
      res.end(errorPage('Open this page in a browser (GET) and answer it with its form (POST).'));
      return;
    }
    const caller = await callerOf(req);
    if (!caller || caller.userId === null || caller.role === null) {
      // Not signed in to the portal (or the session ended): sign in there, then come back here.
      res.writeHead(303, { location: `/portal/sign-in?return_to=${encodeURIComponent(`${INTERACTION_PREFIX}${uid}`)}`, 'cache-control': 'no-store' });
      res.end();
      return;
    }
    const role = caller.role;
    const clientId = String(details.params.client_id);
    const client = await provider.Client.find(clientId);
    if (!client) return sendPage(res, 400, errorPage('The assistant that asked is no longer registered; start connecting from the assistant again.'));
    const requested = String(details.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    const asked = requested.filter(isScope);
    const ofRole = scopesOfRole(caller.role);
    const person = await findUserWithAccount(services.db, caller.userId);
    const view = (error?: string) =>
      consentPage({
        clientName: client.clientName ?? clientId,
        clientId,
        redirectHost: hostOfUri(String(details.params.redirect_uri)),
        accountName: person.name,
        email: person.email,
        role: person.role,
        formAction: `${INTERACTION_PREFIX}${uid}`,
        scopes: SCOPES.filter((scope) => asked.includes(scope)).map(
          (scope): ConsentScopeView => ({
            scope,
            label: SCOPE_LABELS[scope],
            checked: ofRole.includes(scope),
            refusedBecause: ofRole.includes(scope) ? null : `As a ${role} of this account you cannot give this; an owner can.`,
          }),
        ),
        ...(error ? { error } : {}),
      });
    if (asked.length === 0) {
      return sendPage(
        res,
        400,
        errorPage(`The assistant asked for none of this account's scopes (${SCOPES.join(', ')}); it must ask for at least one in "scope".`),
      );
    }
    if (req.method === 'GET') return sendPage(res, 200, view());

    // POST: the person's answer. Browsers name the page's origin on every form POST, so only the
    // portal's own is taken: another site's, "null" (a sandboxed frame, a data: or file: page) and a
    // missing one (not a browser, or one told to hide it) are refused, whatever the cookie allows.
    const origin = req.headers.origin;
    if (origin !== new URL(issuer).origin) {
      return sendPage(
        res,
        403,
        errorPage(
          origin === undefined || origin === 'null'
            ? 'This answer did not say which page it came from (no Origin); answer the consent page itself, in a browser.'
            : 'This answer came from another site; answer the consent page itself.',
        ),
      );
    }
    const form = await readForm(req);
    if (form === null) return sendPage(res, 413, errorPage('The answer is too large; use the consent page form.'));
    if (form.get('decision') === 'deny') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person declined to connect the assistant.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const chosen = form.getAll('scope');
    const unknown = chosen.filter((scope) => !isScope(scope) || !asked.includes(scope));
    if (unknown.length > 0) return sendPage(res, 400, view(`The assistant did not ask for ${unknown.join(', ')}; tick only the scopes listed.`));
    const beyondRole = chosen.filter(isScope).find((scope) => !ofRole.includes(scope));
    if (beyondRole) return sendPage(res, 403, view(roleRefusal(role, beyondRole).detail));
    const granted = chosen.filter(isScope);
    if (granted.length === 0) return sendPage(res, 400, view('Tick at least one scope, or choose Deny.'));

    const resource = typeof details.params.resource === 'string' ? details.params.resource : mcpResource(issuer);
    const accountId = String(caller.userId);
    const grant = new provider.Grant({ accountId, clientId });
    // Our scopes are the resource's (what the access token holds) and, being listed in the provider's
    // scopes, its own too: both are recorded, or it would ask again.
    grant.addResourceScope(resource, granted.join(' '));
    const oidc = requested.filter((scope) => OIDC_SCOPES.has(scope));
    grant.addOIDCScope([...oidc, ...granted].join(' '));
    // What the person left unticked is recorded as refused, so the provider does not ask again.
    const left = asked.filter((scope) => !granted.includes(scope));
    if (left.length > 0) {
      grant.rejectResourceScope(resource, left.join(' '));
      grant.rejectOIDCScope(left.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  };

  return {
    issuerFor,
    route(req) {
      const path = pathOf(req);
      if (path.startsWith(INTERACTION_PREFIX)) return interaction;
      if (path.startsWith('/oauth/') || path === AUTHORIZATION_SERVER_METADATA_PATH || path === OPENID_DISCOVERY_PATH) return byProvider;
      return null;
    },
  };

  async function callerOf(req: IncomingMessage) {
    const token = sessionTokenOf(req.headers.cookie ?? null);
    return token ? authenticateSession(services.db, token) : null;
  }
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function hostOf(req: IncomingMessage): string {
  const host = req.headers.host;
  return host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : 'localhost';
}

function hostOfUri(uri: string): string {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
}

function sendPage(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { ...CONSENT_PAGE_HEADERS });
  res.end(html);
}

/** The consent form's fields; null when the body is over MAX_FORM_BYTES. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(bytes);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
