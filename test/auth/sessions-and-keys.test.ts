import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, graphql, type TestService } from '../support/test-service.js';
import { cookieOf, outboxMailsTo, sessionGraphql, signIn, signUpNew, tokenMailedTo } from './auth-support.js';

let service: TestService;
const outbox = mkdtempSync(join(tmpdir(), 'people-outbox-'));
beforeAll(async () => {
  service = await startTestService({ env: { ALERT_OUTBOX_DIR: outbox, STRIPE_SECRET_KEY: '' }, rateLimits: { signInEmail: 4, signInAddress: 100 } });
});
afterAll(async () => {
  await service?.close();
});

const CREATE_KEY = 'mutation($input: ApiKeyInput!) { createApiKey(input: $input) { keyId key scopes } }';

describe('sign-up and sign-in', () => {
  it('signs up a new account with its owner and sets an HttpOnly, SameSite=Lax session cookie (not Secure on localhost)', async () => {
    const { response, body } = await signUpNew(service, 'Owner.One@Example.com');
    expect(response.status).toBe(201);
    expect(body.account_id).toBeGreaterThan(0);
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^svc_session=[A-Za-z0-9_-]{40,}/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).not.toContain('Secure');
  });

  it("answers a sign-up for a taken address exactly as for a new one, and tells the address's owner by e-mail", async () => {
    await signUpNew(service, 'taken-one@example.com');
    const ask = (email: string) =>
      service.api('/auth/sign-up', {
        method: 'POST',
        key: null,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account_name: 'Someone else', email, password: 'another long password' }),
      });
    const taken = await ask('Taken-One@example.com');
    const fresh = await ask('fresh-one@example.com');
    expect([taken.status, fresh.status]).toEqual([202, 202]);
    const [t, f] = [(await taken.json()) as { detail: string }, (await fresh.json()) as { detail: string }];
    expect(t.detail.replace('taken-one', 'X')).toBe(f.detail.replace('fresh-one', 'X'));
    expect(t.detail).toMatch(/^Check your e-mail/);
    expect(taken.headers.get('set-cookie')).toBeNull();
    const told = outboxMailsTo(service, 'taken-one@example.com').at(-1) ?? '';
    expect(told).toContain('Someone tried to sign up with your address');
    expect(told).not.toContain('confirm-sign-up');
    expect(outboxMailsTo(service, 'fresh-one@example.com').at(-1)).toMatch(/confirm-sign-up\?token=/);
    // No second account: the owner's password still signs in to the first, the other one nothing.
    expect((await signIn(service, 'taken-one@example.com', 'correct horse battery')).response.status).toBe(200);
    expect((await signIn(service, 'taken-one@example.com', 'another long password')).response.status).toBe(401);
  });

  it('opens the account only once its confirmation link is used, and the link works once', async () => {
    await service.api('/auth/sign-up', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account_name: 'Pending Co', email: 'pending@example.com', password: 'correct horse battery' }),
    });
    expect((await signIn(service, 'pending@example.com', 'correct horse battery')).response.status).toBe(401);
    const token = tokenMailedTo(service, 'pending@example.com', '/portal/confirm-sign-up');
    const confirm = () =>
      service.api('/auth/sign-up/confirm', { method: 'POST', key: null, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    const first = await confirm();
    expect(first.status).toBe(201);
    expect(((await first.json()) as { account_name: string }).account_name).toBe('Pending Co');
    const again = await confirm();
    expect(again.status).toBe(400);
    expect(((await again.json()) as { code: string }).code).toBe('invalid_token');
    expect((await signIn(service, 'pending@example.com', 'correct horse battery')).response.status).toBe(200);
  });

  it('gives the same answer for an unknown e-mail and a wrong password, and rotates the session at sign-in', async () => {
    const first = await signUpNew(service, 'rotate@example.com');
    const wrong = await signIn(service, 'rotate@example.com', 'not the password');
    const unknown = await signIn(service, 'nobody-here@example.com', 'not the password');
    expect(wrong.response.status).toBe(401);
    expect(unknown.response.status).toBe(401);
    const [a, b] = [await wrong.response.json(), await unknown.response.json()];
    expect(a.detail).toBe(b.detail);
    expect(a.code).toBe(b.code);
    const ok = await signIn(service, 'ROTATE@example.com', 'correct horse battery');
    expect(ok.response.status).toBe(200);
    expect(ok.cookie).not.toBe(first.cookie);
  });

  it('throttles sign-in per e-mail address with a 429 and Retry-After', async () => {
    await signUpNew(service, 'throttle@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await signIn(service, 'throttle@example.com', 'wrong password')).response.status);
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    const refused = await signIn(service, 'throttle@example.com', 'correct horse battery');
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await refused.response.json()).detail).toMatch(/per client address and e-mail address/);
  });
});

describe('sessions on /graphql', () => {
  it('refuses a cookie-signed request without the x-graphql-yoga-csrf header', async () => {
    const { cookie } = await signUpNew(service, 'csrf@example.com');
    const refused = await sessionGraphql(service, cookie, '{ apiKeys { keyId } }', {}, false);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('x-graphql-yoga-csrf');
    const allowed = await sessionGraphql(service, cookie, '{ apiKeys { keyId } }');
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.apiKeys).toEqual([]);
  });

  it('creates a key shown once (sk_test_ in sandbox mode), which then works with fetch; revoking it makes the next request 401', async () => {
    const { cookie } = await signUpNew(service, 'keys@example.com');
    const made = await sessionGraphql(service, cookie, CREATE_KEY, { input: { name: 'CI', scopes: ['read'] } });
    expect(made.body.errors).toBeUndefined();
    const { key, keyId, scopes } = made.body.data.createApiKey;
    expect(key).toMatch(/^sk_test_/);
    expect(scopes).toEqual(['read']);
    const used = await service.api('/v1/portal/dashboard', { key });
    expect(used.status).toBe(200);
    const listed = await sessionGraphql(service, cookie, '{ apiKeys { keyId name prefix scopes createdBy revokedAt } }');
    expect(listed.body.data.apiKeys).toEqual([
      { keyId, name: 'CI', prefix: key.slice(0, 14), scopes: ['read'], createdBy: 'keys@example.com', revokedAt: null },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    const revoked = await sessionGraphql(service, cookie, 'mutation($id: Int!) { revokeApiKey(keyId: $id) { revoked } }', { id: keyId });
    expect(revoked.body.data.revokeApiKey.revoked).toBe(true);
    expect((await service.api('/v1/portal/dashboard', { key })).status).toBe(401);
  });

  it('refuses createApiKey, apiKeys and inviteUser to an API key with a 403 naming the portal', async () => {
    const made = await graphql(service, CREATE_KEY, { input: { name: 'x', scopes: ['read'] } });
    expect(made.status).toBe(403);
    expect(made.body.errors?.[0].extensions.code).toBe('session_required');
    expect(made.body.errors?.[0].extensions.status).toBe(403);
    const listed = await graphql(service, '{ apiKeys { keyId } }');
    expect(listed.status).toBe(403);
    expect(listed.body.errors?.[0].extensions.code).toBe('session_required');
  });

  it("keeps account A's session away from account B's keys and records", async () => {
    const a = await signUpNew(service, 'tenant-a@example.com');
    const b = await signUpNew(service, 'tenant-b@example.com');
    const bKey = (await sessionGraphql(service, b.cookie, CREATE_KEY, { input: { name: 'B', scopes: ['read'] } })).body.data.createApiKey;
    const aList = await sessionGraphql(service, a.cookie, '{ apiKeys { keyId } }');
    expect(aList.body.data.apiKeys).toEqual([]);
    const steal = await sessionGraphql(service, a.cookie, 'mutation($id: Int!) { revokeApiKey(keyId: $id) { revoked } }', { id: bKey.keyId });
    expect(steal.body.errors?.[0].extensions.code).toBe('key_not_found');
    expect((await service.api('/v1/portal/dashboard', { key: bKey.key })).status).toBe(200);
    // The demo account's orders are not A's.
    const demoOrders = await graphql(service, '{ orders { subscriptionId } }');
    const aOrders = await sessionGraphql(service, a.cookie, '{ orders { subscriptionId } }');
    expect(demoOrders.body.data.orders.length).toBeGreaterThan(0);
    expect(aOrders.body.data.orders).toEqual([]);
  });

  it('refuses a sign-in posted by a page of another site, or as a form, so no one is signed in to an account not theirs', async () => {
    await signUpNew(service, 'login-csrf@example.com');
    const body = JSON.stringify({ email: 'login-csrf@example.com', password: 'correct horse battery' });
    const crossSite = await service.api('/auth/sign-in', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json', origin: 'https://attacker.example' },
      body,
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('set-cookie')).toBeNull();
    expect((await crossSite.json()).detail).toMatch(/https:\/\/attacker\.example cannot call them/);
    const asForm = await service.api('/auth/sign-in', { method: 'POST', key: null, headers: { 'content-type': 'text/plain' }, body });
    expect(asForm.status).toBe(415);
    expect(asForm.headers.get('set-cookie')).toBeNull();
    const sameSite = await service.api('/auth/sign-in', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json', origin: service.apiUrl },
      body,
    });
    expect(sameSite.status).toBe(200);
  });

  it('signing out revokes the session on the server: the old cookie no longer signs in', async () => {
    const { cookie } = await signUpNew(service, 'signout@example.com');
    expect((await sessionGraphql(service, cookie, '{ apiKeys { keyId } }')).status).toBe(200);
    const out = await service.api('/auth/sign-out', { method: 'POST', key: null, headers: { cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    const after = await sessionGraphql(service, cookie, '{ apiKeys { keyId } }');
    expect(after.body.errors?.[0].extensions.status).toBe(401);
  });
});

describe('invitations and password resets', () => {
  const lastMail = (to: string) => outboxMailsTo(service, to).at(-1) ?? '';
  const tokenIn = (mail: string) => /token=([A-Za-z0-9_-]+)/.exec(mail)?.[1] ?? '';

  it('an owner invites a member by an e-mailed link; the member cannot invite', async () => {
    const owner = await signUpNew(service, 'inviter@example.com');
    const invited = await sessionGraphql(service, owner.cookie, 'mutation { inviteUser(email: "member@example.com", role: member) { email role } }');
    expect(invited.body.data.inviteUser).toEqual({ email: 'member@example.com', role: 'member' });
    const token = tokenIn(lastMail('member@example.com'));
    expect(token).not.toBe('');
    const accepted = await service.api('/auth/accept-invitation', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'member password 1' }),
    });
    expect(accepted.status).toBe(201);
    expect((await accepted.json()).account_id).toBe(owner.body.account_id);
    const reuse = await service.api('/auth/accept-invitation', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'member password 1' }),
    });
    expect(reuse.status).toBe(400);
    const memberCookie = cookieOf(accepted);
    const refused = await sessionGraphql(service, memberCookie, 'mutation { inviteUser(email: "other@example.com", role: owner) { email } }');
    expect(refused.body.errors?.[0].extensions.code).toBe('owner_only');
  });

  it('a reset link sets a new password and signs every session out; an unknown e-mail gets the same 202', async () => {
    const { cookie } = await signUpNew(service, 'reset@example.com');
    const asked = await service.api('/auth/password-reset', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'reset@example.com' }),
    });
    const unknown = await service.api('/auth/password-reset', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ghost@example.com' }),
    });
    expect(asked.status).toBe(202);
    expect(unknown.status).toBe(202);
    const token = tokenIn(lastMail('reset@example.com'));
    const confirmed = await service.api('/auth/password-reset/confirm', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'a brand new password' }),
    });
    expect(confirmed.status).toBe(200);
    expect((await sessionGraphql(service, cookie, '{ apiKeys { keyId } }')).body.errors?.[0].extensions.status).toBe(401);
    expect((await signIn(service, 'reset@example.com', 'a brand new password')).response.status).toBe(200);
  });
});

describe('self sign-up switched off', () => {
  it('SELF_SIGN_UP=off refuses POST /auth/sign-up with a sentence', async () => {
    const closed = await startTestService({ env: { SELF_SIGN_UP: 'off' } });
    try {
      const { response, body } = await signUpNew(closed, 'closed@example.com');
      expect(response.status).toBe(403);
      expect(JSON.stringify(body)).toContain('SELF_SIGN_UP=off');
    } finally {
      await closed.close();
    }
  });
});
