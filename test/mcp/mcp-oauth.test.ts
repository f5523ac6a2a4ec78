import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CookieBrowser, TestAssistant as SupportAssistant } from '../support/mcp-oauth-assistant.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { createUserInAccount } from '../support/portal-people.js';
import { sessionGraphql, signIn, signUpNew } from '../auth/auth-support.js';
import { issuePasswordReset } from '../../resolvers/people/user-tokens.js';

/**
 * The MCP sign-in end to end (docs/mcp.md, "Sign-in"), with the MCP SDK's own OAuth client against a
 * running service: the 401 and its challenge, discovery (RFC 9728, then RFC 8414), dynamic client
 * registration (RFC 7591), the authorization with PKCE through the consent page (driven by fetch with
 * a signed-in person's session cookie), the code exchange, tools listed by the granted scopes, a tool
 * call, refresh token rotation, the portal's list and revoke, and the refusals of bad input.
 */
let service: TestService;
let owner: { cookie: string; accountId: number; email: string };
beforeAll(async () => {
  service = await startTestService({ env: { STRIPE_SECRET_KEY: '' } });
  const signedUp = await signUpNew(service, 'oauth-owner@example.com');
  owner = { cookie: signedUp.cookie, accountId: signedUp.body.account_id, email: 'oauth-owner@example.com' };
});
afterAll(async () => {
  await service?.close();
});

const REDIRECT = 'http://127.0.0.1:9/callback';
const mcpUrl = () => new URL(`${service.apiUrl}/mcp`);

/** The assistant of these tests, redirecting to a loopback address nothing listens on (the test reads the code from the redirect). */
class TestAssistant extends SupportAssistant {
  constructor(name = 'Test assistant') {
    super(REDIRECT, name);
  }
}

/** A browser on the account listener: the session cookie plus whatever the authorization server sets. */
class Browser extends CookieBrowser {
  constructor(sessionCookie: string) {
    super(service.apiUrl, sessionCookie);
  }
}

/** Follows the authorization URL to the consent page; returns the page's URL and HTML. */
async function openConsent(browser: Browser, authorizationUrl: URL) {
  const started = await browser.fetch(authorizationUrl.href);
  expect(started.status).toBe(303);
  const consentUrl = started.headers.get('location')!;
  expect(consentUrl).toMatch(/^\/oauth\/interaction\/[A-Za-z0-9_-]+$/);
  const page = await browser.fetch(consentUrl);
  return { consentUrl, status: page.status, html: await page.text(), location: page.headers.get('location') };
}

/** Answers the consent page with the ticked scopes, follows the redirects and returns the code sent to the redirect URI. */
async function allow(browser: Browser, consentUrl: string, scopes: string[]) {
  const form = new URLSearchParams(scopes.map((s) => ['scope', s]));
  form.set('decision', 'allow');
  const answered = await browser.fetch(consentUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  expect(answered.status).toBe(303);
  let location = answered.headers.get('location')!;
  while (!location.startsWith(REDIRECT)) {
    const next = await browser.fetch(location);
    expect(next.status, await next.clone().text()).toBe(303);
    location = next.headers.get('location')!;
  }
  const code = new URL(location).searchParams.get('code');
  expect(code).toBeTruthy();
  return code!;
}

/** The SDK's first attempt: 401, discovery, registration, then the authorization URL it would open. */
async function startSignIn(assistant = new TestAssistant()) {
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: assistant });
  await expect(new Client({ name: 'oauth-test', version: '1' }).connect(transport)).rejects.toThrow(UnauthorizedError);
  expect(assistant.authorizationUrl).toBeDefined();
  return { assistant, transport };
}

/** The whole sign-in for a person, as the SDK drives it: returns the assistant holding its tokens. */
async function connect(cookie: string, scopes: string[], assistant = new TestAssistant()) {
  const { transport } = await startSignIn(assistant);
  const browser = new Browser(cookie);
  const consent = await openConsent(browser, assistant.authorizationUrl!);
  expect(consent.status).toBe(200);
  const code = await allow(browser, consent.consentUrl, scopes);
  await transport.finishAuth(code);
  return assistant;
}

async function connectedClient(assistant: TestAssistant) {
  const client = new Client({ name: 'oauth-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: assistant }));
  return client;
}

const tokenEndpoint = () => `${service.apiUrl}/oauth/token`;
const postToken = (params: Record<string, string>) =>
  fetch(tokenEndpoint(), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });
/** One MCP request with a bearer token, as an assistant sends it. */
const mcpCall = (accessToken: string | undefined, method: string) =>
  fetch(`${service.apiUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
  });

/** The assistant's access token is refused on /mcp and its refresh token is invalid_grant. */
async function expectDisconnected(assistant: TestAssistant) {
  const mcp = await mcpCall(assistant.saved!.access_token, 'tools/list');
  expect(mcp.status).toBe(401);
  const refresh = await postToken({ grant_type: 'refresh_token', refresh_token: assistant.saved!.refresh_token!, client_id: assistant.client!.client_id });
  expect((await refresh.json()).error).toBe('invalid_grant');
}

const CONNECTED = 'query { connectedAssistants { connectionId clientName clientId scopes connectedAt lastUsedAt } }';
const REVOKE = 'mutation($id: String!) { revokeConnectedAssistant(connectionId: $id) { connectionId revoked } }';

describe('discovery', () => {
  it('the resource metadata names this listener as its authorization server, whose RFC 8414 metadata offers code + S256 PKCE and registration', async () => {
    const resource = await (await fetch(`${service.apiUrl}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource.authorization_servers).toEqual([service.apiUrl]);
    const response = await fetch(`${service.apiUrl}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    const metadata = await response.json();
    expect(metadata).toMatchObject({
      issuer: service.apiUrl,
      authorization_endpoint: `${service.apiUrl}/oauth/authorize`,
      token_endpoint: `${service.apiUrl}/oauth/token`,
      registration_endpoint: `${service.apiUrl}/oauth/register`,
      revocation_endpoint: `${service.apiUrl}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['read', 'write', 'orders:place']));
  });
});

describe('an assistant signs in with the SDK and uses the account', () => {
  it('401, discovery, registration, consent, code with PKCE: the token lists and calls the tools of the granted scopes only', async () => {
    const assistant = await connect(owner.cookie, ['read', 'write']);
    expect(assistant.client?.client_id).toBeTruthy();
    expect(assistant.saved?.access_token).toBeTruthy();
    expect(assistant.saved?.refresh_token).toBeTruthy();
    expect(assistant.saved?.scope?.split(' ').sort()).toEqual(['read', 'write']);

    const client = await connectedClient(assistant);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('get_dashboard');
    expect(names).toContain('set_alert_recipients');
    expect(names).not.toContain('place_order');
    const answer = await client.callTool({ name: 'set_alert_recipients', arguments: { emails: ['oauth@example.com'] } });
    expect(answer.isError).toBeFalsy();
    const read = await client.callTool({ name: 'get_alert_recipients', arguments: {} });
    expect(read.structuredContent).toEqual({ emails: ['oauth@example.com'], max_emails: 10 });
    await client.close();

    // Counted like a key: the answer carries the account's reading allowance.
    const counted = await fetch(`${service.apiUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${assistant.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(counted.status).toBe(200);
    expect(counted.headers.get('x-ratelimit-limit')).toBe('240');

    // The token is for /mcp only: REST does not take it.
    const rest = await service.api('/v1/portal/dashboard', { key: assistant.saved!.access_token });
    expect(rest.status).toBe(401);
  });

  it('a refresh rotates the refresh token; the old one is refused and, coming back, ends the connection', async () => {
    const assistant = await connect(owner.cookie, ['read']);
    const first = assistant.saved!;
    expect(await auth(assistant, { serverUrl: mcpUrl() })).toBe('AUTHORIZED');
    const second = assistant.saved!;
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    const client = await connectedClient(assistant);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('set_alert_recipients');
    // A tool beyond the granted scopes, called anyway: refused, saying how to get the scope.
    const refused = await client.callTool({ name: 'set_alert_recipients', arguments: { emails: ['no@example.com'] } });
    expect(refused.isError).toBe(true);
    const [text] = refused.content as { text: string }[];
    expect(JSON.parse(text!.text)).toMatchObject({
      code: 'missing_scope',
      status: 403,
      detail: expect.stringMatching(/^This access token lacks the "write" scope.*tick "write" on the consent page/),
    });
    await client.close();

    const reused = await postToken({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: assistant.client!.client_id });
    expect(reused.status).toBe(400);
    const body = await reused.json();
    expect(body.error).toBe('invalid_grant');
    expect(body.detail).toMatch(/Start the sign-in again: the code or refresh token is used/);
    // Reuse detection: the whole grant is revoked, the newest tokens with it.
    const after = await postToken({ grant_type: 'refresh_token', refresh_token: second.refresh_token!, client_id: assistant.client!.client_id });
    expect((await after.json()).error).toBe('invalid_grant');
    const mcp = await fetch(`${service.apiUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${second.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('the portal lists the connected assistant and revoking it kills its access and refresh tokens', async () => {
    const assistant = await connect(owner.cookie, ['read', 'write', 'orders:place'], new TestAssistant('Revocable assistant'));
    const client = await connectedClient(assistant);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('place_order');
    await client.close();

    const listed = await sessionGraphql(service, owner.cookie, CONNECTED);
    expect(listed.body.errors).toBeUndefined();
    const mine = listed.body.data.connectedAssistants.find((a: { clientName: string }) => a.clientName === 'Revocable assistant');
    expect(mine).toMatchObject({ clientId: assistant.client!.client_id, scopes: ['read', 'write', 'orders:place'] });
    expect(Date.parse(mine.connectedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(mine.lastUsedAt).not.toBeNull();

    // A key cannot see or revoke connections.
    const byKey = await service.api('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: CONNECTED }),
    });
    expect((await byKey.json()).errors[0].extensions).toMatchObject({ status: 403 });

    const revoked = await sessionGraphql(service, owner.cookie, REVOKE, { id: mine.connectionId });
    expect(revoked.body.data.revokeConnectedAssistant).toEqual({ connectionId: mine.connectionId, revoked: true });
    await expect(connectedClient(new TestAssistantWith(assistant.saved!, assistant.client!))).rejects.toThrow();
    const refresh = await postToken({ grant_type: 'refresh_token', refresh_token: assistant.saved!.refresh_token!, client_id: assistant.client!.client_id });
    expect((await refresh.json()).error).toBe('invalid_grant');
    const again = await sessionGraphql(service, owner.cookie, REVOKE, { id: mine.connectionId });
    expect(again.body.errors?.[0].extensions).toMatchObject({ status: 404 });
    expect(again.body.errors?.[0].message).toMatch(/connectedAssistants/);
    const gone = await sessionGraphql(service, owner.cookie, CONNECTED);
    expect(gone.body.data.connectedAssistants.map((a: { connectionId: string }) => a.connectionId)).not.toContain(mine.connectionId);
  });

  it('a person made a member: their assistant loses orders:place at once (never more than the role holds now)', async () => {
    const person = await createUserInAccount(service, owner.accountId, 'owner');
    const { cookie } = await signIn(service, person.email, person.password);
    const assistant = await connect(cookie, ['read', 'orders:place']);
    const before = await connectedClient(assistant);
    expect((await before.listTools()).tools.map((t) => t.name)).toContain('place_order');
    await before.close();
    const changed = await sessionGraphql(service, owner.cookie, 'mutation($id: Int!) { changeRole(userId: $id, role: member) { role } }', {
      id: person.userId,
    });
    expect(changed.body.data.changeRole.role).toBe('member');
    const after = await connectedClient(assistant);
    const names = (await after.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('place_order');
    expect(names).toContain('get_dashboard');
    await after.close();
    // The refresh answers the role's scopes too, and its new access token holds no more.
    const refreshed = await postToken({ grant_type: 'refresh_token', refresh_token: assistant.saved!.refresh_token!, client_id: assistant.client!.client_id });
    expect(refreshed.status).toBe(200);
    const tokens = await refreshed.json();
    expect(tokens.scope.split(' ')).not.toContain('orders:place');
    expect(tokens.scope.split(' ')).toContain('read');
    const introspected = await mcpCall(tokens.access_token, 'tools/list');
    expect(introspected.status).toBe(200);
  });

  it("a password reset disconnects the person's assistants: the old access token is refused and its refresh token is invalid_grant", async () => {
    const person = await createUserInAccount(service, owner.accountId, 'owner');
    const { cookie } = await signIn(service, person.email, person.password);
    const assistant = await connect(cookie, ['read']);
    expect((await mcpCall(assistant.saved!.access_token, 'tools/list')).status).toBe(200);
    const token = await issuePasswordReset(service.services.db, person.userId);
    const reset = await service.api('/auth/password-reset/confirm', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'a brand new password 42' }),
    });
    expect(reset.status).toBe(200);
    await expectDisconnected(assistant);
    expect((await reset.json()).detail).toMatch(/every connected assistant disconnected/);
  });

  it("signing out everywhere ends every session and disconnects the person's assistants", async () => {
    const person = await createUserInAccount(service, owner.accountId, 'owner');
    const { cookie } = await signIn(service, person.email, person.password);
    const other = await signIn(service, person.email, person.password);
    const assistant = await connect(cookie, ['read']);
    const unsigned = await service.api('/auth/sign-out-everywhere', { method: 'POST', key: null });
    expect(unsigned.status).toBe(401);
    expect((await unsigned.json()).detail).toMatch(/Sign in first/);
    const out = await service.api('/auth/sign-out-everywhere', { method: 'POST', key: null, headers: { cookie } });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ signed_out: true, everywhere: true });
    await expectDisconnected(assistant);
    // The other browser's session ended too.
    const me = await sessionGraphql(service, other.cookie, CONNECTED);
    expect(me.body.errors?.[0].extensions).toMatchObject({ status: 401 });
  });

  it("changing the password (GraphQL) disconnects the person's assistants; the session that changed it stays", async () => {
    const person = await createUserInAccount(service, owner.accountId, 'owner');
    const { cookie } = await signIn(service, person.email, person.password);
    const assistant = await connect(cookie, ['read']);
    const changed = await sessionGraphql(service, cookie, 'mutation($input: ChangePasswordInput!) { changePassword(input: $input) { changed } }', {
      input: { currentPassword: person.password, newPassword: 'another new password 7' },
    });
    expect(changed.body.data.changePassword.changed).toBe(true);
    await expectDisconnected(assistant);
    expect((await sessionGraphql(service, cookie, CONNECTED)).body.data.connectedAssistants).toEqual([]);
  });

  it("a removed person's assistant stops working", async () => {
    const person = await createUserInAccount(service, owner.accountId, 'owner');
    const { cookie } = await signIn(service, person.email, person.password);
    const assistant = await connect(cookie, ['read']);
    const client = await connectedClient(assistant);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    const removed = await sessionGraphql(service, owner.cookie, 'mutation($id: Int!) { removePerson(userId: $id) { removed } }', { id: person.userId });
    expect(removed.body.data.removePerson.removed).toBe(true);
    const mcp = await fetch(`${service.apiUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${assistant.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(401);
    const refresh = await postToken({ grant_type: 'refresh_token', refresh_token: assistant.saved!.refresh_token!, client_id: assistant.client!.client_id });
    expect((await refresh.json()).error).toBe('invalid_grant');
  });
});

describe('refusals, each saying what to change', () => {
  it('a code exchanged with the wrong PKCE verifier is refused with invalid_grant', async () => {
    const { assistant } = await startSignIn();
    const browser = new Browser(owner.cookie);
    const consent = await openConsent(browser, assistant.authorizationUrl!);
    const code = await allow(browser, consent.consentUrl, ['read']);
    const wrong = await postToken({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: assistant.client!.client_id,
      code_verifier: 'x'.repeat(43),
    });
    expect(wrong.status).toBe(400);
    const body = await wrong.json();
    expect(body.error).toBe('invalid_grant');
    expect(body.detail).toMatch(/PKCE code_verifier does not match/);
    // Without a verifier at all: PKCE is required.
    const none = await postToken({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: assistant.client!.client_id });
    expect(none.status).toBe(400);
    expect((await none.json()).detail).toMatch(/code_verifier/);
  });

  it('an unknown client is refused at the authorization endpoint (a page) and the token endpoint (JSON)', async () => {
    const { assistant } = await startSignIn();
    const url = new URL(assistant.authorizationUrl!);
    url.searchParams.set('client_id', 'no-such-client');
    const page = await new Browser(owner.cookie).fetch(url.href);
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/Register the client again/);
    const token = await postToken({
      grant_type: 'authorization_code',
      code: 'whatever',
      redirect_uri: REDIRECT,
      client_id: 'no-such-client',
      code_verifier: 'x'.repeat(43),
    });
    expect(token.status).toBe(401);
    const body = await token.json();
    expect(body.error).toBe('invalid_client');
    expect(body.detail).toMatch(/Register the client again/);
  });

  it('a redirect URI the client did not register is refused on a page, never redirected to', async () => {
    const { assistant } = await startSignIn();
    const url = new URL(assistant.authorizationUrl!);
    url.searchParams.set('redirect_uri', 'http://127.0.0.1:9/elsewhere');
    const page = await new Browser(owner.cookie).fetch(url.href);
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toMatch(/Use a redirect URI the client registered/);
  });

  it('registration takes public clients with https or loopback redirect URIs only', async () => {
    const register = (metadata: Record<string, unknown>) =>
      fetch(`${service.apiUrl}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
    const remoteHttp = await register({ redirect_uris: ['http://assistant.example/callback'], client_name: 'x' });
    expect(remoteHttp.status).toBe(400);
    const refused = await remoteHttp.json();
    expect(refused.error).toBe('invalid_redirect_uri');
    expect(refused.detail).toMatch(/use an https:\/\/ URL, or http:\/\/ on 127\.0\.0\.1/);
    const confidential = await register({ redirect_uris: ['https://assistant.example/callback'], token_endpoint_auth_method: 'client_secret_basic' });
    expect(confidential.status).toBe(400);
    expect((await confidential.json()).detail).toMatch(/Only public clients may register/);
    const ok = await register({ redirect_uris: ['https://assistant.example/callback', 'http://localhost:6274/oauth/callback'], client_name: 'Inspector' });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ token_endpoint_auth_method: 'none', client_name: 'Inspector' });
  });

  it('a member cannot give orders:place: shown but not tickable, refused with 403 if sent; read and write are given', async () => {
    const member = await createUserInAccount(service, owner.accountId, 'member');
    const { cookie } = await signIn(service, member.email, member.password);
    const { assistant, transport } = await startSignIn();
    const browser = new Browser(cookie);
    const consent = await openConsent(browser, assistant.authorizationUrl!);
    expect(consent.status).toBe(200);
    expect(consent.html).toMatch(/value="orders:place" disabled/);
    expect(consent.html).toMatch(/As a member of this account you cannot give this/);
    const form = new URLSearchParams([
      ['scope', 'read'],
      ['scope', 'orders:place'],
      ['decision', 'allow'],
    ]);
    const refused = await browser.fetch(consent.consentUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/As a member you cannot place orders or save a card|cannot place orders or save a card/);
    const code = await allow(browser, consent.consentUrl, ['read', 'write']);
    await transport.finishAuth(code);
    expect(assistant.saved?.scope?.split(' ').sort()).toEqual(['read', 'write']);
  });

  it('a person not signed in is sent to the portal sign-in and back; declining sends access_denied to the assistant', async () => {
    const { assistant } = await startSignIn();
    const anonymous = new Browser('');
    const started = await anonymous.fetch(assistant.authorizationUrl!.href);
    const consentUrl = started.headers.get('location')!;
    const page = await anonymous.fetch(consentUrl);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`/portal/sign-in?return_to=${encodeURIComponent(consentUrl)}`);
    // Signed in (the same browser), the page shows; Deny goes back to the assistant with access_denied.
    const [name, value] = owner.cookie.split('=');
    anonymous.jar.set(name!, value!);
    expect((await anonymous.fetch(consentUrl)).status).toBe(200);
    const denied = await anonymous.fetch(consentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=deny',
    });
    let location = denied.headers.get('location')!;
    while (!location.startsWith(REDIRECT)) location = (await anonymous.fetch(location)).headers.get('location')!;
    expect(new URL(location).searchParams.get('error')).toBe('access_denied');
  });

  it('a consent answered from another site is refused', async () => {
    const { assistant } = await startSignIn();
    const browser = new Browser(owner.cookie);
    const consent = await openConsent(browser, assistant.authorizationUrl!);
    const forged = await browser.fetch(consent.consentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'scope=read&decision=allow',
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toMatch(/came from another site/);
  });

  it('a consent answered with Origin: null or without an Origin is refused, and no grant is made', async () => {
    const { assistant } = await startSignIn();
    const browser = new Browser(owner.cookie);
    const consent = await openConsent(browser, assistant.authorizationUrl!);
    const before = (await sessionGraphql(service, owner.cookie, CONNECTED)).body.data.connectedAssistants.length;
    // A sandboxed frame or a data: page sends "null"; a client that is not a browser sends none.
    const nullOrigin = await browser.fetch(consent.consentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
      body: 'scope=read&decision=allow',
    });
    expect(nullOrigin.status).toBe(403);
    expect(await nullOrigin.text()).toMatch(/no Origin/);
    const cookie = [...browser.jar].map(([n, v]) => `${n}=${v}`).join('; ');
    const noOrigin = await fetch(new URL(consent.consentUrl, service.apiUrl), {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'scope=read&decision=allow',
      redirect: 'manual',
    });
    expect(noOrigin.status).toBe(403);
    expect(await noOrigin.text()).toMatch(/no Origin/);
    expect((await sessionGraphql(service, owner.cookie, CONNECTED)).body.data.connectedAssistants).toHaveLength(before);
    // The page itself, answered from the portal's own origin, still connects.
    const code = await allow(browser, consent.consentUrl, ['read']);
    expect(code).toBeTruthy();
  });
});

describe('open registration has a per-address allowance', () => {
  // Last in the file: it spends what is left of this address's hourly allowance (30 registrations).
  it('past 30 registrations an hour from one address, 429 with Retry-After and a detail', async () => {
    const register = () =>
      fetch(`${service.apiUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'many' }),
      });
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i <= 30 && !refused; i++) {
      const response = await register();
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    expect(statuses.filter((s) => s !== 201 && s !== 429)).toEqual([]);
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused!.json()).detail).toMatch(/Too many client registrations from this address; register once and keep the client_id/);
  });
});

/** An assistant that already holds tokens (no flow: it only uses them). */
class TestAssistantWith extends TestAssistant {
  constructor(tokens: OAuthTokens, client: OAuthClientInformationMixed) {
    super();
    this.saved = tokens;
    this.client = client;
  }
  override saveTokens() {}
}
