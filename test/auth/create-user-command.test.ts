import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../admin/run-admin-command.js';
import { startTestService, type TestService, TEST_ADMIN_SETTINGS } from '../support/test-service.js';
import { sessionGraphql, signIn } from './auth-support.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

describe('admin create-user', () => {
  it("prints a generated password once; the person signs in with it and manages the account's keys", async () => {
    const outcome = await runAdminCommand(
      service.services.db,
      ['create-user', '--account', String(service.demo.accountId), '--email', 'Operator.Made@Example.com', '--role', 'owner'],
      TEST_ADMIN_SETTINGS,
    );
    expect(outcome.ok).toBe(true);
    const result = outcome.ok ? outcome.result : {};
    expect(result.user_id).toEqual(expect.any(Number));
    expect(String(result.password)).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const { response, cookie } = await signIn(service, 'operator.made@example.com', String(result.password));
    expect(response.status).toBe(200);
    const keys = await sessionGraphql(service, cookie, '{ apiKeys { keyId } }');
    expect(keys.body.data.apiKeys.map((k: { keyId: number }) => k.keyId)).toContain(service.demo.keyId);
  });

  it('refuses a taken e-mail, an unknown role and an unknown account with sentences', async () => {
    const args = (email: string, role: string, account = String(service.demo.accountId)) => [
      'create-user',
      '--account',
      account,
      '--email',
      email,
      '--role',
      role,
    ];
    await runAdminCommand(service.services.db, args('twice@example.com', 'member'), TEST_ADMIN_SETTINGS);
    const taken = await runAdminCommand(service.services.db, args('twice@example.com', 'member'), TEST_ADMIN_SETTINGS);
    expect(taken.ok ? '' : taken.error).toContain('already signs in');
    const role = await runAdminCommand(service.services.db, args('role@example.com', 'admin'), TEST_ADMIN_SETTINGS);
    expect(role.ok ? '' : role.error).toContain('owner or member');
    const account = await runAdminCommand(service.services.db, args('acct@example.com', 'owner', '999999'), TEST_ADMIN_SETTINGS);
    expect(account.ok ? '' : account.error).toContain('no account');
  });
});
