import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { createUser } from '../../resolvers/people/users.js';
import { outboxMailsTo, sessionGraphql, signIn, tokenMailedTo } from '../auth/auth-support.js';
import { freshOutbox, signUpDirect } from './people-support.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ env: { STRIPE_SECRET_KEY: '', ALERT_OUTBOX_DIR: freshOutbox() }, rateLimits: { change: 1000, signInAddress: 1000 } });
});
afterAll(async () => {
  await service?.close();
});

const INVITE = 'mutation($e: String!, $r: UserRole!) { inviteUser(email: $e, role: $r) { email role expiresAt invitedBy } }';
const RESEND = 'mutation($e: String!) { resendInvitation(email: $e) { email role expiresAt } }';
const CANCEL = 'mutation($e: String!) { cancelInvitation(email: $e) { email cancelled } }';
const REMOVE = 'mutation($id: Int!) { removePerson(userId: $id) { removed sessionsEnded keysRevoked } }';

const post = (path: string, body: unknown) =>
  service.api(path, { method: 'POST', key: null, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const accept = (token: string) => post('/auth/accept-invitation', { token, password: 'invited person password' });
const preview = (token: string) => post('/auth/invitation', { token });
const inviteLink = (to: string) => tokenMailedTo(service, to, '/portal/accept-invitation');

describe('invitations', () => {
  it('the e-mail and the accept page name the account and the owner who invited', async () => {
    const owner = await signUpDirect(service, 'ines@example.com', 'Northwind Outreach');
    const sent = await sessionGraphql(service, owner.cookie, INVITE, { e: 'Named@Example.com', r: 'member' });
    expect(sent.body.data.inviteUser).toEqual({ email: 'named@example.com', role: 'member', expiresAt: expect.any(String), invitedBy: 'ines@example.com' });
    const days = (new Date(sent.body.data.inviteUser.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const mail = outboxMailsTo(service, 'named@example.com').at(-1) ?? '';
    expect(mail).toContain('Subject: ines@example.com invited you to Northwind Outreach');
    expect(mail).toContain('ines@example.com invited you to join "Northwind Outreach"');
    const page = await preview(inviteLink('named@example.com'));
    expect(page.status).toBe(200);
    expect(await page.json()).toEqual({
      account_name: 'Northwind Outreach',
      invited_by: 'ines@example.com',
      email: 'named@example.com',
      role: 'member',
      expires_at: sent.body.data.inviteUser.expiresAt,
    });
    const listed = await sessionGraphql(service, owner.cookie, '{ invitations { email invitedBy } }');
    expect(listed.body.data.invitations).toEqual([{ email: 'named@example.com', invitedBy: 'ines@example.com' }]);
  });

  it('a second invitation to the same address replaces the first: only the newest link works, and only one is listed', async () => {
    const owner = await signUpDirect(service, 'twice@example.com');
    await sessionGraphql(service, owner.cookie, INVITE, { e: 'again@example.com', r: 'owner' });
    const first = inviteLink('again@example.com');
    await sessionGraphql(service, owner.cookie, INVITE, { e: 'again@example.com', r: 'member' });
    const second = inviteLink('again@example.com');
    expect(second).not.toBe(first);
    expect((await sessionGraphql(service, owner.cookie, '{ invitations { email role } }')).body.data.invitations).toEqual([
      { email: 'again@example.com', role: 'member' },
    ]);
    const old = await accept(first);
    expect(old.status).toBe(400);
    expect(((await old.json()) as { detail: string }).detail).toMatch(/unknown, used, cancelled or expired/);
    const joined = await accept(second);
    expect(joined.status).toBe(201);
    expect(((await joined.json()) as { role: string }).role).toBe('member');
  });

  it('a cancelled invitation no longer opens, and cancelling it twice is a 404 with a sentence', async () => {
    const owner = await signUpDirect(service, 'canceller@example.com');
    await sessionGraphql(service, owner.cookie, INVITE, { e: 'cancelled@example.com', r: 'member' });
    const token = inviteLink('cancelled@example.com');
    expect((await sessionGraphql(service, owner.cookie, CANCEL, { e: 'cancelled@example.com' })).body.data.cancelInvitation).toEqual({
      email: 'cancelled@example.com',
      cancelled: true,
    });
    expect((await preview(token)).status).toBe(400);
    expect((await accept(token)).status).toBe(400);
    const again = await sessionGraphql(service, owner.cookie, CANCEL, { e: 'cancelled@example.com' });
    expect(again.body.errors?.[0].extensions.code).toBe('invitation_not_found');
    expect(again.body.errors?.[0].message).toMatch(/There is no pending invitation for cancelled@example.com/);
    expect((await sessionGraphql(service, owner.cookie, '{ invitations { email } }')).body.data.invitations).toEqual([]);
  });

  it('re-sending mails a new link valid 7 more days, kills the old one, and works for an expired invitation', async () => {
    const owner = await signUpDirect(service, 'resender@example.com');
    await sessionGraphql(service, owner.cookie, INVITE, { e: 'late@example.com', r: 'member' });
    const first = inviteLink('late@example.com');
    // Seven days pass: the link has expired.
    await service.services.db
      .updateTable('user_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', 'late@example.com')
      .execute();
    expect((await accept(first)).status).toBe(400);
    const resent = await sessionGraphql(service, owner.cookie, RESEND, { e: 'late@example.com' });
    expect(resent.body.data.resendInvitation.role).toBe('member');
    expect(new Date(resent.body.data.resendInvitation.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6.99 * 86_400_000);
    const second = inviteLink('late@example.com');
    expect(second).not.toBe(first);
    expect((await accept(second)).status).toBe(201);
    const none = await sessionGraphql(service, owner.cookie, RESEND, { e: 'nobody-invited@example.com' });
    expect(none.body.errors?.[0].extensions.code).toBe('invitation_not_found');
  });

  it('removing a person drops the invitation still pending for their address, so the old link does not let them back in', async () => {
    const owner = await signUpDirect(service, 'keeper@example.com');
    await sessionGraphql(service, owner.cookie, INVITE, { e: 'comeback@example.com', r: 'owner' });
    const pending = inviteLink('comeback@example.com');
    // Meanwhile the operator added them (admin create-user), and the owner removes them.
    const userId = await createUser(service.services.db, owner.accountId, 'comeback@example.com', 'operator given password', 'member');
    const removed = await sessionGraphql(service, owner.cookie, REMOVE, { id: userId });
    expect(removed.body.data.removePerson.removed).toBe(true);
    expect((await accept(pending)).status).toBe(400);
    expect((await signIn(service, 'comeback@example.com', 'invited person password')).response.status).toBe(401);
  });

  it('removing a member revokes the keys they made (REST and MCP answer 401) and tells the owner how many', async () => {
    const owner = await signUpDirect(service, 'boss@example.com');
    await sessionGraphql(service, owner.cookie, INVITE, { e: 'leaver@example.com', r: 'member' });
    const joined = await accept(inviteLink('leaver@example.com'));
    const { user_id: leaverId } = (await joined.json()) as { user_id: number };
    const leaverCookie = (joined.headers.get('set-cookie') ?? '').split(';')[0]!;
    const keys: string[] = [];
    for (const name of ['one', 'two']) {
      const made = await sessionGraphql(service, leaverCookie, `mutation { createApiKey(input: {name: "${name}", scopes: ["read"]}) { key } }`);
      keys.push(made.body.data.createApiKey.key);
    }
    const ownersKey = (await sessionGraphql(service, owner.cookie, 'mutation { createApiKey(input: {name: "mine", scopes: ["read"]}) { key } }')).body.data
      .createApiKey.key as string;
    expect((await service.api('/v1/alerts/recipients', { key: keys[0]! })).status).toBe(200);
    const removed = await sessionGraphql(service, owner.cookie, REMOVE, { id: leaverId });
    expect(removed.body.data.removePerson).toEqual({ removed: true, sessionsEnded: 1, keysRevoked: 2 });
    expect((await service.api('/v1/alerts/recipients', { key: keys[0]! })).status).toBe(401);
    const mcp = await service.api('/mcp', {
      key: keys[1]!,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(401);
    expect((await sessionGraphql(service, leaverCookie, '{ viewer { email } }')).body.errors?.[0].extensions.status).toBe(401);
    expect((await service.api('/v1/alerts/recipients', { key: ownersKey })).status).toBe(200);
  });

  it('an address that signs in to another account is answered like any other, and its holder gets a note without a link', async () => {
    await signUpDirect(service, 'elsewhere@example.com');
    const owner = await signUpDirect(service, 'curious@example.com', 'Curious Co');
    const taken = await sessionGraphql(service, owner.cookie, INVITE, { e: 'elsewhere@example.com', r: 'member' });
    const fresh = await sessionGraphql(service, owner.cookie, INVITE, { e: 'nobody-yet@example.com', r: 'member' });
    expect(taken.body.errors).toBeUndefined();
    expect(Object.keys(taken.body.data.inviteUser)).toEqual(Object.keys(fresh.body.data.inviteUser));
    const note = outboxMailsTo(service, 'elsewhere@example.com').at(-1) ?? '';
    expect(note).toContain('curious@example.com invited you to join "Curious Co"');
    expect(note).toContain('already signs in to another account');
    expect(note).not.toContain('accept-invitation?token=');
    // Someone already on the account is a 409: the owner sees the account's people anyway.
    const self = await sessionGraphql(service, owner.cookie, INVITE, { e: 'curious@example.com', r: 'member' });
    expect(self.body.errors?.[0].extensions.code).toBe('already_a_member');
  });

  it('the accept page answers an unknown token with a 400 and a sentence', async () => {
    const answer = await preview('not-a-real-token-at-all-0123456789');
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { detail: string }).detail).toMatch(/ask the account owner for a new one/);
  });
});
