import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { DEMO_VERIFICATION_TOKEN } from '../../resolvers/orders/verification-record.js';
import { adminCommands } from '../../admin/commands.js';
import { cookieOf, outboxMailsTo, tokenMailedTo } from '../auth/auth-support.js';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';

/**
 * Referrals as a new account meets them (docs/ordering.md, "Referrals"): a code from the start, a link
 * to the portal's sign-up page, a sign-up that carries the code, and the referrer credited once when
 * the referred account pays its first invoice, through the sandbox processor.
 */
let h: OrderingHarness;
const free = (() => {
  let i = 20;
  return () => FREE_DOMAINS[i++]!;
})();

beforeAll(async () => {
  h = await startOrderingService({
    env: { ALERT_OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'referrals-outbox-')), STRIPE_SECRET_KEY: '' },
    rateLimits: { signInAddress: 100, order: 1000 },
  });
});
afterAll(async () => {
  await h?.close();
});

interface ReferralsAnswer {
  code: string;
  link: string;
  terms: string;
  share_percent: number;
  pending_total: number;
  earned_total: number;
  earnings: { referred_account: string; amount: number; currency: string; status: string }[];
}

async function askSignUp(email: string, extra: Record<string, unknown> = {}) {
  return postJson(h.service, '/auth/sign-up', { account_name: `Account of ${email}`, email, password: 'correct horse battery', ...extra }, { key: null });
}

/** POST /auth/sign-up (with the extra fields), then the mailed link: the new account and a key for it. */
async function signUp(email: string, extra: Record<string, unknown> = {}) {
  const asked = await askSignUp(email, extra);
  expect(asked.status).toBe(202);
  const token = tokenMailedTo(h.service, email, '/portal/confirm-sign-up');
  const confirmed = await h.service.api('/auth/sign-up/confirm', {
    method: 'POST',
    key: null,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(confirmed.status).toBe(201);
  expect(cookieOf(confirmed)).not.toBe('');
  const { account_id: accountId } = (await confirmed.json()) as { account_id: number };
  const { key } = await createApiKey(h.service.services.db, accountId, ['read', 'write', 'orders:place']);
  return { accountId, key };
}

async function referralsOf(key: string): Promise<ReferralsAnswer> {
  const response = await h.service.api('/v1/portal/referrals', { key });
  expect(response.status).toBe(200);
  return (await response.json()) as ReferralsAnswer;
}

/** Places a one-domain order as the account: the sandbox charges the card on file at once. */
async function placeOrder(key: string, idempotencyKey: string) {
  const placed = await postJson(h.service, '/v1/orders', orderBody([free()], 1), { key, headers: { 'idempotency-key': idempotencyKey } });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  return placed.body as { charged: { amount: number; currency: string } };
}

/** The account proves domains with the token the test zone publishes (as seeded test accounts do). */
async function publishedTokenFor(accountId: number): Promise<void> {
  await h.service.services.db
    .insertInto('domain_verification_tokens')
    .values({ account_id: accountId, token: DEMO_VERIFICATION_TOKEN })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ token: DEMO_VERIFICATION_TOKEN }))
    .execute();
}

async function referrerOf(accountId: number): Promise<number | null> {
  const row = await h.service.services.db.selectFrom('accounts').select('referred_by_account_id').where('id', '=', accountId).executeTakeFirstOrThrow();
  return row.referred_by_account_id;
}

describe('every account has a referral code', () => {
  it('a brand-new account shows its code, the sign-up link carrying it, and the terms, with nothing earned', async () => {
    const { key } = await signUp('fresh-referrer@example.com');
    const referrals = await referralsOf(key);
    expect(referrals.code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    // API_URL as configured (the address people reach), as the e-mailed links are.
    expect(referrals.link).toBe(`${h.service.services.config.apiUrl}/portal/sign-up?ref=${referrals.code}`);
    expect(referrals.share_percent).toBe(20);
    expect(referrals.terms).toContain('20% of what that invoice charged');
    expect(referrals).toMatchObject({ earned_total: 0, pending_total: 0, earnings: [] });
    // The code was made when the account opened, not by this read: a second read shows the same one.
    expect((await referralsOf(key)).code).toBe(referrals.code);
  });

  it('the referral link opens the portal sign-up page', async () => {
    const { key } = await signUp('link-opener@example.com');
    const { link } = await referralsOf(key);
    const { pathname, search } = new URL(link);
    expect(pathname).toBe('/portal/sign-up');
    // Moved onto this test's listener: the link names the configured API_URL.
    const page = await fetch(`${h.service.apiUrl}${pathname}${search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root"');
  });

  it('an account made by admin create-account has its code at once', async () => {
    const fail = (message: string): never => {
      throw new Error(message);
    };
    const created = await adminCommands['create-account']!.run(h.service.services.db, { name: 'Operator made' }, fail, {
      keyMode: 'test',
      jobLeaseMs: 60_000,
      defaultPlans: [],
    });
    const accountId = Number(created.account_id);
    expect(accountId).toBeGreaterThan(0);
    const row = await h.service.services.db.selectFrom('referrals').select('code').where('account_id', '=', accountId).executeTakeFirst();
    expect(row?.code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
  });

  it('an account opened before codes were given out gets one on its first read, and keeps it', async () => {
    const account = await h.service.services.db.insertInto('accounts').values({ name: 'Opened long ago' }).returning('id').executeTakeFirstOrThrow();
    const { key } = await createApiKey(h.service.services.db, account.id, ['read']);
    const first = await referralsOf(key);
    expect(first.code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    expect((await referralsOf(key)).code).toBe(first.code);
  });
});

describe('signing up with a referral code', () => {
  it('an unknown code is a 422 with a sentence, and no confirmation is mailed', async () => {
    const asked = await askSignUp('unknown-code@example.com', { referral_code: 'NOSUCHCODE' });
    expect(asked.status).toBe(422);
    expect(asked.body.code).toBe('unknown_referral_code');
    expect(asked.body.detail).toContain('No account has the referral code "NOSUCHCODE"');
    expect(outboxMailsTo(h.service, 'unknown-code@example.com')).toHaveLength(0);
    const wrongType = await askSignUp('unknown-code@example.com', { referral_code: 42 });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.detail).toMatch(/referral_code/);
  });

  it('a blank code signs up with no referrer', async () => {
    const { accountId } = await signUp('blank-code@example.com', { referral_code: '  ' });
    expect(await referrerOf(accountId)).toBeNull();
  });

  it("the referred account's first paid invoice credits the referrer 20%, once", async () => {
    const referrer = await signUp('referrer@example.com');
    const { code } = await referralsOf(referrer.key);
    // As typed by a person: lower case, spaces around.
    const referred = await signUp('referred@example.com', { referral_code: ` ${code.toLowerCase()} ` });
    expect(await referrerOf(referred.accountId)).toBe(referrer.accountId);
    expect((await referralsOf(referrer.key)).earnings).toEqual([]);

    await publishedTokenFor(referred.accountId);
    await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242', referred.key);
    // A card alone pays nothing: still nothing earned.
    expect((await referralsOf(referrer.key)).earnings).toEqual([]);

    const first = await placeOrder(referred.key, 'referred-order-1');
    expect(first.charged.amount).toBeGreaterThan(0);
    const credited = await referralsOf(referrer.key);
    expect(credited.earnings).toEqual([
      expect.objectContaining({
        referred_account: 'Account of referred@example.com',
        amount: Math.round(first.charged.amount * 0.2),
        currency: first.charged.currency,
        status: 'pending',
      }),
    ]);
    expect(credited.pending_total).toBe(Math.round(first.charged.amount * 0.2));

    // The second paid invoice earns nothing more; the referred account's own referrals are untouched.
    await placeOrder(referred.key, 'referred-order-2');
    expect((await referralsOf(referrer.key)).earnings).toHaveLength(1);
    expect((await referralsOf(referred.key)).earnings).toEqual([]);
  });

  it('a past-due invoice paid when the referred account saves its card credits the referrer', async () => {
    const referrer = await signUp('second-referrer@example.com');
    const { code } = await referralsOf(referrer.key);
    const referred = await signUp('pays-late@example.com', { referral_code: code });
    const now = new Date();
    await h.service.services.db
      .insertInto('invoices')
      .values({
        account_id: referred.accountId,
        order_id: null,
        number: 'INV-LATE-0001',
        status: 'open',
        amount_due: 1750,
        amount_paid: 0,
        currency: 'usd',
        issued_at: now,
        due_at: now,
        paid_at: null,
        processor_invoice_id: `sbx_in_late_${referred.accountId}`,
      })
      .execute();
    await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242', referred.key);
    const billing = await (await h.service.api('/v1/portal/billing', { key: referred.key })).json();
    expect(billing.invoices.find((i: { number: string }) => i.number === 'INV-LATE-0001')).toMatchObject({ status: 'paid', amount_paid: 1750 });
    const credited = await referralsOf(referrer.key);
    expect(credited.earnings).toEqual([expect.objectContaining({ referred_account: 'Account of pays-late@example.com', amount: 350, status: 'pending' })]);
  });
});
