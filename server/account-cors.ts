/** The header a cookie-signed request must carry (yoga's CSRF-prevention header name). */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

/** Headers any page may send to the account listener's /graphql: an API key, never the session's CSRF header. */
const KEY_HEADERS = ['Content-Type', 'Accept', 'Authorization', 'X-Request-Id'];
const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id';

/** Whether a request's Origin is the portal's own: API_URL's origin, or the listener's own origin (same-origin). */
export function isPortalOrigin(origin: string, request: Request, apiUrl: string): boolean {
  return origin === new URL(apiUrl).origin || origin === new URL(request.url).origin;
}

/**
 * CORS of the account listener's /graphql. Only the portal's own origin is answered with credentials
 * and may send the CSRF header that a cookie-signed request needs; any other origin (a sibling
 * subdomain, another port) gets CORS without credentials, so a page there can call with an API key
 * but never as the person signed in to the portal. An answer without an Origin carries no CORS.
 */
export function accountCorsHeaders(request: Request, apiUrl: string): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null) return { Vary: 'Origin' };
  const common = {
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Expose-Headers': EXPOSED,
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
  };
  if (isPortalOrigin(origin, request, apiUrl)) {
    return {
      ...common,
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Allow-Headers': [...KEY_HEADERS, CSRF_HEADER].join(', '),
    };
  }
  return { ...common, 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': KEY_HEADERS.join(', ') };
}
