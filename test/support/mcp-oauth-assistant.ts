import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * An assistant's side of the MCP sign-in, as the SDK's OAuth client asks a provider to keep it: its
 * registration, tokens and PKCE verifier, and the authorization URL it would open in a browser.
 */
export class TestAssistant implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(
    readonly redirectUrl: string,
    readonly name = 'Test assistant',
  ) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [this.redirectUrl],
      client_name: this.name,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A browser's cookies for one listener: the portal session plus whatever the authorization server sets; redirects are not followed. */
export class CookieBrowser {
  readonly jar = new Map<string, string>();
  constructor(
    readonly origin: string,
    sessionCookie: string,
  ) {
    const at = sessionCookie.indexOf('=');
    if (at > 0) this.jar.set(sessionCookie.slice(0, at), sessionCookie.slice(at + 1));
  }
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('cookie', [...this.jar].map(([n, v]) => `${n}=${v}`).join('; '));
    // A browser names the page's origin on a form POST (the consent page refuses one without it).
    if ((init.method ?? 'GET').toUpperCase() === 'POST' && !headers.has('origin')) headers.set('origin', this.origin);
    const response = await fetch(new URL(url, this.origin), { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }
}

/**
 * The person's part of the sign-in, as a browser does it: the assistant's authorization URL, the
 * consent page answered with `scopes`, the redirects; returns the code sent to the redirect URI.
 */
export async function consentInBrowser(browser: CookieBrowser, authorizationUrl: URL, redirectUrl: string, scopes: readonly string[]): Promise<string> {
  let response = await browser.fetch(authorizationUrl.href);
  let location = response.headers.get('location');
  if (!location?.startsWith('/oauth/interaction/')) throw new Error(`the authorization URL answered ${response.status} ${location}`);
  const form = new URLSearchParams(scopes.map((s) => ['scope', s]));
  form.set('decision', 'allow');
  response = await browser.fetch(location, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  location = response.headers.get('location');
  while (location !== null && !location.startsWith(redirectUrl)) {
    response = await browser.fetch(location);
    location = response.headers.get('location');
  }
  const code = location === null ? null : new URL(location).searchParams.get('code');
  if (!code) throw new Error(`the consent ended with ${response.status} and no code`);
  return code;
}
