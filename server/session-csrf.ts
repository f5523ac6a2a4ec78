import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import type { Plugin } from 'graphql-yoga';
import { ApiError } from '../operations/api-error.js';
import { sessionTokenOf } from '../resolvers/people/sessions.js';
import { CSRF_HEADER, isPortalOrigin } from './account-cors.js';

/**
 * CSRF on /graphql (docs/architecture.md, "CSRF on /graphql"). The portal's session cookie is the one
 * credential a browser sends by itself, so it is the one a page elsewhere could borrow; an API key is
 * sent only by a caller that holds it, and a request without either has nothing to borrow. Three rules
 * guard the cookie, strictest last:
 *
 * 1. yoga's own CSRF prevention (`@graphql-yoga/plugin-csrf-prevention`, a plugin of the yoga
 *    instance: useSessionCsrfPrevention): a request a browser sends cross-site without a preflight
 *    (a GET, a form, text/plain) must carry the `x-graphql-yoga-csrf` header, which such a request
 *    cannot. It guards whatever reaches yoga.
 * 2. Ours, in the door before the body is read: a cookie-signed request naming another Origin is
 *    refused, since browsers send the cookie from a sibling subdomain too (same site)
 *    (crossSiteSessionRefusal).
 * 3. Ours, in the door before anything is spent: a cookie-signed request that runs an operation
 *    carries the header whatever its content type, a JSON body included, which yoga's plugin lets
 *    through as preflighted (missingCsrfHeaderRefusal). It holds everything rule 1 refuses, so the
 *    door answers those first, in its own words (`csrf_header_missing`, a `detail` saying what to
 *    send) and with nothing spent; yoga's plugin stands behind it for any other way into yoga.
 *
 * A request with a key is never asked for the header (the key is no ambient credential, and
 * `Authorization` is itself a header a cross-site page cannot send without a preflight); a request
 * with neither (the public checks, GET included) is not either.
 */

/** The session token of a request signed in by the portal's cookie: the cookie counts only when no key is sent. */
export function cookieSessionOf(request: Request): string | null {
  return request.headers.get('authorization') === null ? sessionTokenOf(request.headers.get('cookie')) : null;
}

/** Whether a /graphql request runs an operation: a POST, or a GET naming a query (GraphiQL's page, or a GET without one, runs nothing). */
export function runsOperation(request: Request, url: URL): boolean {
  return request.method === 'POST' || url.searchParams.has('query');
}

/**
 * Rule 1: yoga's CSRF-prevention plugin, for requests signed in by the session cookie that run an
 * operation (the requests rule 3 holds, so a request the door lets through is never answered
 * otherwise than before: a GET without a query keeps yoga's own answer).
 */
export function useSessionCsrfPrevention(): Plugin {
  const onRequestParse = useCSRFPrevention({ requestHeaders: [CSRF_HEADER] }).onRequestParse;
  return {
    onRequestParse(payload) {
      if (onRequestParse && cookieSessionOf(payload.request) !== null && runsOperation(payload.request, payload.url)) return onRequestParse(payload);
    },
  };
}

/** Rule 2: a cookie-signed request from a page other than the portal's own origin. */
export function crossSiteSessionRefusal(request: Request, apiUrl: string): ApiError | null {
  const origin = request.headers.get('origin');
  if (origin === null || isPortalOrigin(origin, request, apiUrl)) return null;
  return new ApiError(
    403,
    'cross_site_request',
    `A page at ${origin.slice(0, 100)} cannot call /graphql as the person signed in to the portal; call it with an API key ("Authorization: Bearer <key>") instead.`,
  );
}

/** Rule 3: a cookie-signed request that runs an operation without the CSRF header, whatever its content type. */
export function missingCsrfHeaderRefusal(request: Request): ApiError | null {
  if (request.headers.has(CSRF_HEADER)) return null;
  return new ApiError(
    403,
    'csrf_header_missing',
    `A request signed in by the session cookie must carry the "${CSRF_HEADER}" header (any value); send it with every GraphQL request from the portal, or use an API key instead.`,
  );
}
