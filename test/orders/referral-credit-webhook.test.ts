import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { giveReferralCode } from '../../resolvers/referrals/referral-code.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';
import { startOrderingService, type OrderingHarness } from './support/ordering-fixture.js';
import { postStripeEvent } from './support/stripe-webhooks.js';

/**
 * The referrer's credit when the referred account's first invoice is paid at Stripe and we learn it
 * by webhook (docs/ordering.md, "Referrals"): a failed charge earns nothing, the later invoice.paid
 * credits 20% once, and a replayed event credits nothing more.
 */
const WEBHOOK_SECRET = 'whsec_referral_test_0123456789';
let fake: FakeStripe;
let h: OrderingHarness;

beforeAll(async () => {
  fake = await startFakeStripe();
  fake.addPrice({ id: 'price_demo_google_unwarmed', unit_amount: 350 });
  h = await startOrderingService({
    env: { STRIPE_SECRET_KEY: fake.secretKey, STRIPE_API_BASE: fake.url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_TIMEOUT_MS: '1500' },
  });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

const webhook = (type: string, object: unknown, created: number) => postStripeEvent(h.service, WEBHOOK_SECRET, type, object, created);

async function earningsOf(key: string): Promise<{ referred_account: string; amount: number; status: string }[]> {
  const response = await h.service.api('/v1/portal/referrals', { key });
  expect(response.status).toBe(200);
  return ((await response.json()) as { earnings: { referred_account: string; amount: number; status: string }[] }).earnings;
}

describe('a referred account paying at Stripe', () => {
  it('credits the referrer when invoice.paid arrives, once, and not for a failed charge', async () => {
    const db = h.service.services.db;
    const referrer = await db.insertInto('accounts').values({ name: 'Referrer at Stripe' }).returning('id').executeTakeFirstOrThrow();
    await giveReferralCode(db, referrer.id);
    const referred = await db
      .insertInto('accounts')
      .values({ name: 'Referred at Stripe', processor_customer_id: 'cus_referred_webhook', referred_by_account_id: referrer.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { key } = await createApiKey(db, referrer.id, ['read']);
    const now = Math.floor(Date.now() / 1000);
    const invoice = {
      id: 'in_referred_first',
      object: 'invoice',
      customer: 'cus_referred_webhook',
      number: 'REF-0001',
      amount_due: 1400,
      amount_paid: 0,
      currency: 'usd',
      status: 'open',
      attempt_count: 1,
      created: now - 3600,
      due_date: null,
      status_transitions: { paid_at: null },
      parent: null,
    };
    expect((await webhook('invoice.payment_failed', invoice, now - 3000)).status).toBe(200);
    expect(await earningsOf(key)).toEqual([]);

    const paid = { ...invoice, status: 'paid', amount_paid: 1400, status_transitions: { paid_at: now - 60 } };
    expect((await webhook('invoice.paid', paid, now - 60)).status).toBe(200);
    expect(await earningsOf(key)).toEqual([expect.objectContaining({ referred_account: 'Referred at Stripe', amount: 280, status: 'pending' })]);

    // Replayed, and a later paid invoice: still the one earning.
    expect((await webhook('invoice.paid', paid, now - 30)).status).toBe(200);
    const second = { ...paid, id: 'in_referred_second', number: 'REF-0002', amount_due: 3000, amount_paid: 3000 };
    expect((await webhook('invoice.paid', second, now - 10)).status).toBe(200);
    expect(await earningsOf(key)).toHaveLength(1);
    const stored = await db.selectFrom('referral_earnings').select(['referred_account_id', 'invoice_id']).where('account_id', '=', referrer.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.referred_account_id).toBe(referred.id);
  });
});
