import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../admin/run-admin-command.js';
import { insertVerifiedDomains } from '../../db/verified-domains.js';
import { TEST_ADMIN_SETTINGS } from '../support/test-service.js';
import { FREE_DOMAINS, orderBody, postJson, startOrderingService, type OrderingHarness } from './support/ordering-fixture.js';

let h: OrderingHarness;
beforeAll(async () => {
  h = await startOrderingService();
});
afterAll(async () => {
  await h?.close();
});

const admin = (...args: string[]) => runAdminCommand(h.service.services.db, args, TEST_ADMIN_SETTINGS);

/** A new account as the operator opens one (not the demo seed): its own plans, a key, no codes. */
async function newAccount(): Promise<{ accountId: number; key: string }> {
  const account = await admin('create-account', '--name', `Newco ${Math.random().toString(36).slice(2, 8)}`);
  if (!account.ok) throw new Error(JSON.stringify(account));
  const accountId = account.result.account_id as number;
  const key = await admin('create-key', '--account', String(accountId), '--scopes', 'read,write,orders:place');
  if (!key.ok) throw new Error(JSON.stringify(key));
  return { accountId, key: key.result.key as string };
}

describe('operators make promotion codes (admin create-promotion-code, list-promotion-codes)', () => {
  it("a code made for a new account applies to that account's preview, and to no other account's", async () => {
    const newco = await newAccount();
    // Proving the domain is not what this test is about: the account has proved it already.
    await insertVerifiedDomains(h.service.services.db, newco.accountId, [FREE_DOMAINS[0]!], new Date());
    const before = await postJson(h.service, '/v1/orders/preview', orderBody([FREE_DOMAINS[0]!], 2, { promotion_code: 'NEWCO15' }), { key: newco.key });
    expect(before.body.code ?? before.body.problems?.[0]?.issues?.[0]?.code).toBe('promotion_code_unknown');

    const made = await admin('create-promotion-code', '--account', String(newco.accountId), '--code', 'newco15', '--percent-off', '15');
    expect(made).toEqual({ ok: true, result: expect.objectContaining({ code: 'NEWCO15', percent_off: 15, duration: 'once', times_redeemed: 0 }) });

    const after = await postJson(h.service, '/v1/orders/preview', orderBody([FREE_DOMAINS[0]!], 2, { promotion_code: 'newco15' }), { key: newco.key });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.discount).toMatchObject({ code: 'NEWCO15', duration: 'once', applies_to: 'first_invoice' });
    expect(after.body.price.first_invoice).toBe(after.body.price.total - Math.round(after.body.price.total * 0.15));

    // The demo account never sees another account's code.
    const other = await postJson(h.service, '/v1/orders/preview', orderBody([FREE_DOMAINS[1]!], 2, { promotion_code: 'NEWCO15' }));
    expect(JSON.stringify(other.body)).toContain('promotion_code_unknown');

    const listed = await admin('list-promotion-codes', '--account', String(newco.accountId));
    expect(listed).toEqual({
      ok: true,
      result: { account_id: newco.accountId, promotion_codes: [expect.objectContaining({ code: 'NEWCO15', percent_off: 15 })] },
    });
  });

  it('repeating codes need --months; amounts in cents with a currency; an expiry date', async () => {
    const newco = await newAccount();
    const made = await admin(
      'create-promotion-code',
      '--account',
      String(newco.accountId),
      '--code',
      'FIVE-OFF',
      '--amount-off',
      '500',
      '--duration',
      'repeating',
      '--months',
      '3',
      '--expires-at',
      '2099-01-31',
      '--max-redemptions',
      '10',
    );
    expect(made).toEqual({
      ok: true,
      result: expect.objectContaining({ amount_off: 500, currency: 'usd', duration_in_months: 3, expires_at: '2099-01-31T23:59:59.000Z', max_redemptions: 10 }),
    });
  });

  it.each([
    [['--code', 'X1', '--percent-off', '10'], /--code must be 3 to 40/],
    [['--code', 'BOTH', '--percent-off', '10', '--amount-off', '100'], /exactly one of --percent-off/],
    [['--code', 'NONE'], /exactly one of --percent-off/],
    [['--code', 'TOOMUCH', '--percent-off', '101'], /between 1 and 100/],
    [['--code', 'REPEAT', '--percent-off', '10', '--duration', 'repeating'], /--months N goes with --duration repeating/],
    [['--code', 'PLANLESS', '--percent-off', '10', '--plan', 'no-such-plan'], /has no plan "no-such-plan"/],
    [['--code', 'WHEN', '--percent-off', '10', '--expires-at', 'tomorrow'], /--expires-at must be a date/],
  ])('refuses %j with a sentence saying what to change', async (args, message) => {
    const newco = await newAccount();
    const result = await admin('create-promotion-code', '--account', String(newco.accountId), ...args);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(message);
  });

  it('refuses a second code of the same name on one account', async () => {
    const newco = await newAccount();
    expect((await admin('create-promotion-code', '--account', String(newco.accountId), '--code', 'TWICE', '--percent-off', '5')).ok).toBe(true);
    const again = await admin('create-promotion-code', '--account', String(newco.accountId), '--code', 'twice', '--percent-off', '5');
    expect(!again.ok && again.error).toMatch(/already has the code "TWICE"/);
  });
});
