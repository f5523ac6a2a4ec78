import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { startTestService, type TestService } from '../support/test-service.js';
import { createUserInAccount } from '../support/portal-people.js';
import { sessionGraphql, signIn } from '../auth/auth-support.js';
import { PERMISSION_MATRIX, type Permission } from '../../resolvers/people/permissions.js';
import { freshOutbox, signUpDirect } from './people-support.js';

let service: TestService;
let accountId: number;
let owner: { cookie: string; userId: number };
let member: { cookie: string; userId: number; email: string };
beforeAll(async () => {
  service = await startTestService({ env: { STRIPE_SECRET_KEY: '', ALERT_OUTBOX_DIR: freshOutbox() }, rateLimits: { change: 1000, read: 1000 } });
  const made = await signUpDirect(service, 'matrix-owner@example.com', 'Matrix Co');
  accountId = made.accountId;
  owner = made;
  member = await personOn('member');
});
afterAll(async () => {
  await service?.close();
});

async function personOn(role: 'owner' | 'member') {
  const person = await createUserInAccount(service, accountId, role);
  const { cookie } = await signIn(service, person.email, person.password);
  return { ...person, cookie };
}

const as = (role: 'owner' | 'member') => (role === 'owner' ? owner.cookie : member.cookie);

async function makeKey(cookie: string, scopes: string[]) {
  const made = await sessionGraphql(service, cookie, 'mutation($s: [String!]!) { createApiKey(input: {name: "matrix", scopes: $s}) { keyId key scopes } }', {
    s: scopes,
  });
  return { ...made, keyId: made.body.data?.createApiKey?.keyId as number, key: made.body.data?.createApiKey?.key as string };
}

/** Asserts the cell's answer: the data when allowed, else a 403 owner_only naming the role. */
function expectCell(answer: { status: number; body: { data?: any; errors?: any[] } }, allowed: boolean, field: string) {
  const error = answer.body.errors?.[0];
  const outcome = { status: answer.status, code: error?.extensions.code ?? 'done', answered: Boolean(answer.body.data?.[field]) };
  expect(outcome, JSON.stringify(answer.body.errors)).toEqual(
    allowed ? { status: 200, code: 'done', answered: true } : { status: 403, code: 'owner_only', answered: false },
  );
  expect(error?.message ?? 'done').toMatch(allowed ? /^done$/ : /^As a member of this account you cannot .+; ask an owner of your account/);
}

/** One action per row of the matrix, done through /graphql with the role's session. */
const CELLS: Record<Permission, (role: 'owner' | 'member') => Promise<void>> = {
  async read(role) {
    expectCell(await sessionGraphql(service, as(role), '{ alertRecipients { emails } }'), PERMISSION_MATRIX.read[role], 'alertRecipients');
  },
  async write(role) {
    const answer = await sessionGraphql(service, as(role), 'mutation { setAlertRecipients(input: {emails: ["ops@example.com"]}) { emails } }');
    expectCell(answer, PERMISSION_MATRIX.write[role], 'setAlertRecipients');
  },
  async 'orders:place'(role) {
    const answer = await sessionGraphql(
      service,
      as(role),
      'mutation { createCardSetupLink(input: {successUrl: "https://example.com/ok", cancelUrl: "https://example.com/no"}) { url } }',
    );
    expectCell(answer, PERMISSION_MATRIX['orders:place'][role], 'createCardSetupLink');
  },
  async createKeys(role) {
    const plain = await makeKey(as(role), ['read', 'write']);
    expectCell(plain, PERMISSION_MATRIX.createKeys[role], 'createApiKey');
    // A key never holds more than its maker's role: orders:place only from someone who may place orders.
    const spending = await makeKey(as(role), ['read', 'orders:place']);
    const mayPlace = PERMISSION_MATRIX['orders:place'][role];
    expect({
      status: spending.status,
      code: spending.body.errors?.[0].extensions.code ?? 'made',
      scopes: spending.body.data?.createApiKey?.scopes ?? null,
    }).toEqual(mayPlace ? { status: 200, code: 'made', scopes: ['read', 'orders:place'] } : { status: 403, code: 'scope_beyond_role', scopes: null });
    expect(spending.body.errors?.[0].message ?? 'made').toMatch(
      mayPlace ? /^made$/ : /As a member you can give a key only read, write; leave out orders:place/,
    );
  },
  async revokeOwnKeys(role) {
    const { keyId } = await makeKey(as(role), ['read']);
    expectCell(await sessionGraphql(service, as(role), 'mutation($id: Int!) { revokeApiKey(keyId: $id) { revoked } }', { id: keyId }), true, 'revokeApiKey');
  },
  async revokeAnyKey(role) {
    // Each role tries the key the other one made.
    const { keyId } = await makeKey(as(role === 'owner' ? 'member' : 'owner'), ['read']);
    const answer = await sessionGraphql(service, as(role), 'mutation($id: Int!) { revokeApiKey(keyId: $id) { revoked } }', { id: keyId });
    expectCell(answer, PERMISSION_MATRIX.revokeAnyKey[role], 'revokeApiKey');
  },
  async invitePeople(role) {
    const email = `invitee-${role}@example.com`;
    expectCell(
      await sessionGraphql(service, as(role), 'mutation($e: String!) { inviteUser(email: $e, role: member) { email } }', { e: email }),
      PERMISSION_MATRIX.invitePeople[role],
      'inviteUser',
    );
    // Re-sending and cancelling belong to the same cell (an owner's invitation is used for the member's try).
    await sessionGraphql(service, owner.cookie, 'mutation($e: String!) { inviteUser(email: $e, role: member) { email } }', { e: email });
    expectCell(
      await sessionGraphql(service, as(role), 'mutation($e: String!) { resendInvitation(email: $e) { email } }', { e: email }),
      PERMISSION_MATRIX.invitePeople[role],
      'resendInvitation',
    );
    expectCell(
      await sessionGraphql(service, as(role), 'mutation($e: String!) { cancelInvitation(email: $e) { cancelled } }', { e: email }),
      PERMISSION_MATRIX.invitePeople[role],
      'cancelInvitation',
    );
  },
  async removePeople(role) {
    const target = await personOn('member');
    const answer = await sessionGraphql(service, as(role), 'mutation($id: Int!) { removePerson(userId: $id) { removed } }', { id: target.userId });
    expectCell(answer, PERMISSION_MATRIX.removePeople[role], 'removePerson');
  },
  async changeRoles(role) {
    const target = await personOn('member');
    const answer = await sessionGraphql(service, as(role), 'mutation($id: Int!) { changeRole(userId: $id, role: owner) { role } }', { id: target.userId });
    expectCell(answer, PERMISSION_MATRIX.changeRoles[role], 'changeRole');
  },
  async changeOwnPassword(role) {
    const person = await personOn(role);
    const answer = await sessionGraphql(service, person.cookie, 'mutation($i: ChangePasswordInput!) { changePassword(input: $i) { changed } }', {
      i: { currentPassword: person.password, newPassword: 'a different long password' },
    });
    expectCell(answer, PERMISSION_MATRIX.changeOwnPassword[role], 'changePassword');
  },
};

describe('the permission matrix, one test per cell, through /graphql with a session', () => {
  for (const permission of Object.keys(PERMISSION_MATRIX) as Permission[]) {
    for (const role of ['owner', 'member'] as const) {
      const allowed = PERMISSION_MATRIX[permission][role];
      it(`${role} × ${permission}: ${allowed ? 'allowed' : 'refused with a 403 naming the role'}`, async () => {
        expect.hasAssertions();
        await CELLS[permission](role);
      });
    }
  }
});

describe('keys as the actor (REST and MCP)', () => {
  it("a member's key holds the member's scopes: it reads and writes, and placing an order is a 403 on REST and absent from MCP", async () => {
    const { key } = await makeKey(member.cookie, ['read', 'write']);
    expect((await service.api('/v1/alerts/recipients', { key })).status).toBe(200);
    const put = await service.api('/v1/alerts/recipients', {
      key,
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ emails: [] }),
    });
    expect(put.status).toBe(200);
    const setup = await service.api('/v1/payment-method/setup-link', {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ success_url: 'https://example.com/ok', cancel_url: 'https://example.com/no' }),
    });
    expect(setup.status).toBe(403);
    expect(((await setup.json()) as { required_scope: string }).required_scope).toBe('orders:place');
    const tools = await service.api('/mcp', {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const names = ((await tools.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(names).toContain('set_alert_recipients');
    expect(names).not.toContain('place_order');
  });

  it("an owner made a member loses the keys they made that hold more than a member's scopes", async () => {
    const second = await personOn('owner');
    const spending = await makeKey(second.cookie, ['read', 'orders:place']);
    const reading = await makeKey(second.cookie, ['read']);
    await sessionGraphql(service, owner.cookie, 'mutation($id: Int!) { changeRole(userId: $id, role: member) { role } }', { id: second.userId });
    expect((await service.api('/v1/alerts/recipients', { key: spending.key })).status).toBe(401);
    expect((await service.api('/v1/alerts/recipients', { key: reading.key })).status).toBe(200);
  });
});

describe('docs/people.md', () => {
  it('writes the matrix the code enforces, row by row', () => {
    const doc = readFileSync(new URL('../../docs/people.md', import.meta.url), 'utf8');
    for (const [permission, row] of Object.entries(PERMISSION_MATRIX)) {
      const line = doc.split('\n').find((l) => l.startsWith(`| \`${permission}\` |`));
      expect(line, permission).toBeDefined();
      const cells = line!.split('|').map((c) => c.trim());
      expect([cells[2], cells[3]], permission).toEqual([row.owner ? 'yes' : 'no', row.member ? 'yes' : 'no']);
    }
  });
});
