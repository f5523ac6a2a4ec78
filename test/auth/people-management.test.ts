import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, graphql, type TestService } from '../support/test-service.js';
import { createUserInAccount } from '../support/portal-people.js';
import { outboxMailsTo, sessionGraphql, signIn, signUpNew } from './auth-support.js';

let service: TestService;
const outbox = mkdtempSync(join(tmpdir(), 'people-manage-outbox-'));
beforeAll(async () => {
  service = await startTestService({ env: { ALERT_OUTBOX_DIR: outbox, STRIPE_SECRET_KEY: '' } });
});
afterAll(async () => {
  await service?.close();
});

const PEOPLE = '{ people { userId email role createdAt } }';
const INVITATIONS = '{ invitations { email role expiresAt } }';
const CHANGE_PASSWORD = 'mutation($input: ChangePasswordInput!) { changePassword(input: $input) { changed otherSessionsEnded } }';
const REMOVE = 'mutation($id: Int!) { removePerson(userId: $id) { userId email removed sessionsEnded keysRevoked } }';
const CHANGE_ROLE = 'mutation($id: Int!, $role: UserRole!) { changeRole(userId: $id, role: $role) { userId email role } }';
const INVITE = 'mutation($email: String!, $role: UserRole!) { inviteUser(email: $email, role: $role) { email role expiresAt } }';

/** A new person on the account, signed in; returns their cookie and id. */
async function personOn(accountId: number, role: 'owner' | 'member') {
  const person = await createUserInAccount(service, accountId, role);
  const { cookie } = await signIn(service, person.email, person.password);
  return { ...person, cookie };
}

const lastMail = (to: string) => outboxMailsTo(service, to).at(-1) ?? '';

describe('people and passwords are for signed-in people only', () => {
  it('refuses people, invitations, changePassword, removePerson and changeRole to an API key with a 403', async () => {
    const calls: [string, Record<string, unknown>][] = [
      [PEOPLE, {}],
      [INVITATIONS, {}],
      [CHANGE_PASSWORD, { input: { currentPassword: 'whatever it is', newPassword: 'something else entirely' } }],
      [REMOVE, { id: 1 }],
      [CHANGE_ROLE, { id: 1, role: 'member' }],
    ];
    for (const [query, variables] of calls) {
      const answer = await graphql(service, query, variables);
      expect(answer.status, query).toBe(403);
      expect(answer.body.errors?.[0].extensions.code, query).toBe('session_required');
      expect(answer.body.errors?.[0].message).toMatch(/sign in to the portal/);
    }
  });
});

describe('people of an account', () => {
  it("lists the account's people and pending invitations; account A's session never sees B's people", async () => {
    const a = await signUpNew(service, 'people-a@example.com');
    const b = await signUpNew(service, 'people-b@example.com');
    const bMember = await personOn(b.body.account_id, 'member');
    await sessionGraphql(service, b.cookie, INVITE, { email: 'b-invitee@example.com', role: 'member' });
    const aPeople = await sessionGraphql(service, a.cookie, PEOPLE);
    expect(aPeople.body.data.people).toEqual([{ userId: a.body.user_id, email: 'people-a@example.com', role: 'owner', createdAt: expect.any(String) }]);
    expect((await sessionGraphql(service, a.cookie, INVITATIONS)).body.data.invitations).toEqual([]);
    const bPeople = await sessionGraphql(service, b.cookie, PEOPLE);
    expect(bPeople.body.data.people.map((p: { email: string }) => p.email)).toEqual(['people-b@example.com', bMember.email]);
    const bInvitations = (await sessionGraphql(service, b.cookie, INVITATIONS)).body.data.invitations;
    expect(bInvitations).toEqual([{ email: 'b-invitee@example.com', role: 'member', expiresAt: expect.any(String) }]);
    expect(new Date(bInvitations[0].expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    // B's people cannot be removed or promoted from A: "no such person", and they stay.
    const remove = await sessionGraphql(service, a.cookie, REMOVE, { id: bMember.userId });
    expect(remove.body.errors?.[0].extensions.code).toBe('person_not_found');
    const promote = await sessionGraphql(service, a.cookie, CHANGE_ROLE, { id: bMember.userId, role: 'owner' });
    expect(promote.body.errors?.[0].extensions.code).toBe('person_not_found');
    expect((await sessionGraphql(service, bMember.cookie, '{ viewer { role } }')).body.data.viewer.role).toBe('member');
  });

  it('the last owner can be neither removed nor made a member; with a second owner both work', async () => {
    const owner = await signUpNew(service, 'last-owner@example.com');
    const refusedRemove = await sessionGraphql(service, owner.cookie, REMOVE, { id: owner.body.user_id });
    expect(refusedRemove.body.errors?.[0].extensions.code).toBe('last_owner');
    expect(refusedRemove.body.errors?.[0].extensions.status).toBe(409);
    expect(refusedRemove.body.errors?.[0].message).toMatch(/last owner .* make another person an owner first/);
    const refusedDemote = await sessionGraphql(service, owner.cookie, CHANGE_ROLE, { id: owner.body.user_id, role: 'member' });
    expect(refusedDemote.body.errors?.[0].extensions.code).toBe('last_owner');
    const second = await personOn(owner.body.account_id, 'member');
    const promoted = await sessionGraphql(service, owner.cookie, CHANGE_ROLE, { id: second.userId, role: 'owner' });
    expect(promoted.body.data.changeRole).toEqual({ userId: second.userId, email: second.email, role: 'owner' });
    // Two owners now: the first may step down, and then the second is the last one.
    const demoted = await sessionGraphql(service, second.cookie, CHANGE_ROLE, { id: owner.body.user_id, role: 'member' });
    expect(demoted.body.data.changeRole.role).toBe('member');
    expect((await sessionGraphql(service, second.cookie, REMOVE, { id: second.userId })).body.errors?.[0].extensions.code).toBe('last_owner');
    const roles = (await sessionGraphql(service, second.cookie, PEOPLE)).body.data.people.map((p: { role: string }) => p.role);
    expect(roles).toEqual(['member', 'owner']);
  });

  it('a member reads the people but gets a 403 with a sentence for invite, remove and change role', async () => {
    const owner = await signUpNew(service, 'owner-of-members@example.com');
    const member = await personOn(owner.body.account_id, 'member');
    expect((await sessionGraphql(service, member.cookie, PEOPLE)).body.data.people).toHaveLength(2);
    const attempts = [
      await sessionGraphql(service, member.cookie, INVITE, { email: 'someone@example.com', role: 'owner' }),
      await sessionGraphql(service, member.cookie, REMOVE, { id: owner.body.user_id }),
      await sessionGraphql(service, member.cookie, CHANGE_ROLE, { id: member.userId, role: 'owner' }),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBe(403);
      expect(attempt.body.errors?.[0].extensions.code).toBe('owner_only');
      expect(attempt.body.errors?.[0].message).toMatch(
        /^As a member of this account you cannot .*; ask an owner of your account to do it or to make you an owner\.$/,
      );
    }
    expect((await sessionGraphql(service, member.cookie, '{ viewer { role } }')).body.data.viewer.role).toBe('member');
  });

  it('removing a person ends their sessions at once and revokes the keys they made, saying how many', async () => {
    const owner = await signUpNew(service, 'remover@example.com');
    const member = await personOn(owner.body.account_id, 'member');
    const made = await sessionGraphql(service, member.cookie, 'mutation { createApiKey(input: {name: "member key", scopes: ["read"]}) { key } }');
    const key = made.body.data.createApiKey.key as string;
    const removed = await sessionGraphql(service, owner.cookie, REMOVE, { id: member.userId });
    expect(removed.body.data.removePerson).toEqual({ userId: member.userId, email: member.email, removed: true, sessionsEnded: 1, keysRevoked: 1 });
    expect((await sessionGraphql(service, member.cookie, '{ viewer { email } }')).body.errors?.[0].extensions.status).toBe(401);
    expect((await signIn(service, member.email, member.password)).response.status).toBe(401);
    expect((await service.api('/v1/portal/dashboard', { key })).status).toBe(401);
    const keys = (await sessionGraphql(service, owner.cookie, '{ apiKeys { name createdBy revokedAt } }')).body.data.apiKeys;
    expect(keys).toEqual([{ name: 'member key', createdBy: null, revokedAt: expect.any(String) }]);
  });
});

describe("changing one's password", () => {
  it('checks the current password, then signs out the other sessions and keeps this one', async () => {
    const here = await signUpNew(service, 'changer@example.com');
    const elsewhere = await signIn(service, 'changer@example.com', 'correct horse battery');
    const wrong = await sessionGraphql(service, here.cookie, CHANGE_PASSWORD, {
      input: { currentPassword: 'not my password', newPassword: 'a fresh new password' },
    });
    expect(wrong.body.errors?.[0].extensions.code).toBe('wrong_password');
    expect(wrong.body.errors?.[0].message).toMatch(/current password is not right/);
    const short = await sessionGraphql(service, here.cookie, CHANGE_PASSWORD, { input: { currentPassword: 'correct horse battery', newPassword: 'short' } });
    expect(short.body.errors?.[0].extensions.code).toBe('invalid_password');
    // Nothing changed so far: the other session still works.
    expect((await sessionGraphql(service, elsewhere.cookie, '{ viewer { email } }')).body.data.viewer.email).toBe('changer@example.com');
    const changed = await sessionGraphql(service, here.cookie, CHANGE_PASSWORD, {
      input: { currentPassword: 'correct horse battery', newPassword: 'a fresh new password' },
    });
    expect(changed.body.data.changePassword).toEqual({ changed: true, otherSessionsEnded: 1 });
    expect((await sessionGraphql(service, here.cookie, '{ viewer { email } }')).body.data.viewer.email).toBe('changer@example.com');
    expect((await sessionGraphql(service, elsewhere.cookie, '{ viewer { email } }')).body.errors?.[0].extensions.status).toBe(401);
    expect((await signIn(service, 'changer@example.com', 'correct horse battery')).response.status).toBe(401);
    expect((await signIn(service, 'changer@example.com', 'a fresh new password')).response.status).toBe(200);
  });
});

describe('the e-mailed links open the portal pages', () => {
  it('an invitation links to /portal/accept-invitation?token= and a reset to /portal/reset-password?token=', async () => {
    const owner = await signUpNew(service, 'linker@example.com');
    await sessionGraphql(service, owner.cookie, INVITE, { email: 'linked-invitee@example.com', role: 'member' });
    // The links start with the configured API_URL (here the default: tests listen on free ports).
    const apiUrl = service.services.config.apiUrl;
    expect(lastMail('linked-invitee@example.com')).toMatch(new RegExp(`\\n${apiUrl}/portal/accept-invitation\\?token=[A-Za-z0-9_-]{40,}\\n`));
    await service.api('/auth/password-reset', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'linker@example.com' }),
    });
    expect(lastMail('linker@example.com')).toMatch(new RegExp(`\\n${apiUrl}/portal/reset-password\\?token=[A-Za-z0-9_-]{40,}\\n`));
  });
});
