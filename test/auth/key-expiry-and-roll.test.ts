import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, startTestService, type TestService } from '../support/test-service.js';
import { createUserInAccount } from '../support/portal-people.js';
import { sessionGraphql, signIn, signUpNew } from './auth-support.js';

// Keys that expire and keys that roll (issue 23 item 6; docs/people.md, "Keys"), through /graphql
// with a session as the portal calls it, and each key used on REST as a customer's program would.
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ env: { STRIPE_SECRET_KEY: '' } });
});
afterAll(async () => {
  await service?.close();
});

const CREATE_KEY = 'mutation($input: ApiKeyInput!) { createApiKey(input: $input) { keyId key scopes expiresAt } }';
const ROLL_KEY =
  'mutation($id: Int!, $grace: Int) { rollApiKey(keyId: $id, graceHours: $grace) { keyId key scopes expiresAt previousKeyId previousKeyExpiresAt } }';
const LIST_KEYS = '{ apiKeys { keyId name scopes expiresAt rolledToKeyId revokedAt } }';
const dashboard = async (key: string) => (await service.api('/v1/portal/dashboard', { key })).status;

describe('API keys that expire', () => {
  it('a key made with expiresAt works until then and is a 401 after, in the same words as a revoked key', async () => {
    const { cookie } = await signUpNew(service, 'expiry@example.com');
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const made = await sessionGraphql(service, cookie, CREATE_KEY, { input: { name: 'one day', scopes: ['read'], expiresAt } });
    expect(made.body.errors).toBeUndefined();
    const { key, keyId } = made.body.data.createApiKey;
    expect(made.body.data.createApiKey.expiresAt).toBe(expiresAt);
    expect(await dashboard(key)).toBe(200);
    const listed = await sessionGraphql(service, cookie, LIST_KEYS);
    expect(listed.body.data.apiKeys).toEqual([{ keyId, name: 'one day', scopes: ['read'], expiresAt, rolledToKeyId: null, revokedAt: null }]);

    // The day passes: the stored expiry moved to a second ago.
    await service.services.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', keyId)
      .execute();
    const refused = await service.api('/v1/portal/dashboard', { key });
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as { code: string; detail: string };
    expect(body.code).toBe('unauthenticated');
    expect(body.detail).toContain('has expired');
  });

  it('refuses an expiry in the past or more than 3 years ahead with a 422 saying what to send', async () => {
    const { cookie } = await signUpNew(service, 'expiry-bad@example.com');
    for (const expiresAt of [new Date(Date.now() - 60_000).toISOString(), new Date(Date.now() + 4 * 365 * 86_400_000).toISOString()]) {
      const refused = await sessionGraphql(service, cookie, CREATE_KEY, { input: { name: 'x', scopes: ['read'], expiresAt } });
      expect(refused.body.errors?.[0].extensions.code).toBe('invalid_expiry');
      expect(refused.body.errors?.[0].extensions.status).toBe(422);
      expect(refused.body.errors?.[0].message).toMatch(/after now and before \d{4}-\d\d-\d\d/);
    }
    expect((await sessionGraphql(service, cookie, LIST_KEYS)).body.data.apiKeys).toEqual([]);
  });
});

describe('rolling a key', () => {
  it('makes a new secret with the same name and scopes; the old one works for the grace period, then is refused', async () => {
    const { cookie } = await signUpNew(service, 'roll@example.com');
    const old = (await sessionGraphql(service, cookie, CREATE_KEY, { input: { name: 'CI', scopes: ['read', 'write'] } })).body.data.createApiKey;
    const before = Date.now();
    const rolled = await sessionGraphql(service, cookie, ROLL_KEY, { id: old.keyId, grace: 24 });
    expect(rolled.body.errors).toBeUndefined();
    const fresh = rolled.body.data.rollApiKey;
    expect(fresh).toMatchObject({ scopes: ['read', 'write'], expiresAt: null, previousKeyId: old.keyId });
    expect(fresh.key).toMatch(/^sk_test_/);
    expect(fresh.key).not.toBe(old.key);
    const graceEnd = Date.parse(fresh.previousKeyExpiresAt);
    expect(graceEnd - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(graceEnd - before).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);

    // Both work during the grace period.
    expect([await dashboard(old.key), await dashboard(fresh.key)]).toEqual([200, 200]);
    const listed = (await sessionGraphql(service, cookie, LIST_KEYS)).body.data.apiKeys;
    expect(listed).toEqual([
      { keyId: old.keyId, name: 'CI', scopes: ['read', 'write'], expiresAt: fresh.previousKeyExpiresAt, rolledToKeyId: fresh.keyId, revokedAt: null },
      { keyId: fresh.keyId, name: 'CI', scopes: ['read', 'write'], expiresAt: null, rolledToKeyId: null, revokedAt: null },
    ]);

    // Rolling the old key again is refused, naming the key to roll instead.
    const again = await sessionGraphql(service, cookie, ROLL_KEY, { id: old.keyId, grace: 24 });
    expect(again.body.errors?.[0].extensions.code).toBe('key_already_rolled');
    expect(again.body.errors?.[0].message).toContain(`roll that key instead`);
    expect(again.body.errors?.[0].message).toContain(`key ${fresh.keyId}`);

    // The grace period ends: the old key is refused, the new one goes on.
    await service.services.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', old.keyId)
      .execute();
    expect([await dashboard(old.key), await dashboard(fresh.key)]).toEqual([401, 200]);
  });

  it('with graceHours 0 the old key stops at once; a revoked key, a bad grace period or another account’s key is refused', async () => {
    const { cookie } = await signUpNew(service, 'roll-now@example.com');
    const old = (await sessionGraphql(service, cookie, CREATE_KEY, { input: { name: 'leaked', scopes: ['read'] } })).body.data.createApiKey;
    const rolled = (await sessionGraphql(service, cookie, ROLL_KEY, { id: old.keyId, grace: 0 })).body.data.rollApiKey;
    expect([await dashboard(old.key), await dashboard(rolled.key)]).toEqual([401, 200]);

    const tooLong = await sessionGraphql(service, cookie, ROLL_KEY, { id: rolled.keyId, grace: 169 });
    expect(tooLong.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_grace_period', status: 422 });

    const revoked = (await sessionGraphql(service, cookie, CREATE_KEY, { input: { name: 'gone', scopes: ['read'] } })).body.data.createApiKey;
    await sessionGraphql(service, cookie, 'mutation($id: Int!) { revokeApiKey(keyId: $id) { revoked } }', { id: revoked.keyId });
    const notActive = await sessionGraphql(service, cookie, ROLL_KEY, { id: revoked.keyId });
    expect(notActive.body.errors?.[0].extensions).toMatchObject({ code: 'key_not_active', status: 409 });

    const other = await signUpNew(service, 'roll-other@example.com');
    const stolen = await sessionGraphql(service, other.cookie, ROLL_KEY, { id: rolled.keyId });
    expect(stolen.body.errors?.[0].extensions).toMatchObject({ code: 'key_not_found', status: 404 });
    expect(await dashboard(rolled.key)).toBe(200);
  });

  it("a member may roll the keys they made but not an owner's (who may revoke a key may roll it)", async () => {
    const owner = await signUpNew(service, 'roll-owner@example.com');
    const ownersKey = (await sessionGraphql(service, owner.cookie, CREATE_KEY, { input: { name: 'owner', scopes: ['read'] } })).body.data.createApiKey;
    const member = await createUserInAccount(service, owner.body.account_id, 'member');
    const memberCookie = (await signIn(service, member.email, member.password)).cookie;
    const refused = await sessionGraphql(service, memberCookie, ROLL_KEY, { id: ownersKey.keyId });
    expect(refused.body.errors?.[0].extensions).toMatchObject({ status: 403 });
    expect(await dashboard(ownersKey.key)).toBe(200);
    const own = (await sessionGraphql(service, memberCookie, CREATE_KEY, { input: { name: 'mine', scopes: ['read'] } })).body.data.createApiKey;
    const rolled = await sessionGraphql(service, memberCookie, ROLL_KEY, { id: own.keyId, grace: 1 });
    expect(rolled.body.errors).toBeUndefined();
    expect(await dashboard(rolled.body.data.rollApiKey.key)).toBe(200);
  });

  it('two rolls of one key at once make one new key; the other is told which', async () => {
    const { cookie } = await signUpNew(service, 'roll-race@example.com');
    const old = (await sessionGraphql(service, cookie, CREATE_KEY, { input: { name: 'race', scopes: ['read'] } })).body.data.createApiKey;
    const both = await Promise.all([1, 2].map(() => sessionGraphql(service, cookie, ROLL_KEY, { id: old.keyId })));
    const made = both.filter((r) => r.body.errors === undefined);
    const refused = both.filter((r) => r.body.errors !== undefined);
    expect([made.length, refused.length]).toEqual([1, 1]);
    expect(refused[0]?.body.errors?.[0].extensions.code).toBe('key_already_rolled');
    expect((await sessionGraphql(service, cookie, LIST_KEYS)).body.data.apiKeys).toHaveLength(2);
  });

  it('an API key cannot roll keys (SPEC 5.4): a 403 naming the portal, and no key is made', async () => {
    const refused = await graphql(service, ROLL_KEY, { id: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.errors?.[0].extensions.code).toBe('session_required');
    const keys = await service.services.db.selectFrom('api_keys').select('id').where('account_id', '=', service.demo.accountId).execute();
    expect(keys).toHaveLength(1);
  });
});
