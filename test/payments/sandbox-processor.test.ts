import { readSettings } from '../../config/settings.js';
import { describe, expect, it } from 'vitest';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import { createPaymentProcessor } from '../../clients/payments/create-payment-processor.js';
import { createMemorySandboxStore } from '../../clients/payments/memory-sandbox-store.js';
import { CardDeclinedError, IdempotencyKeyReusedError, NoPaymentMethodError } from '../../clients/payments/payment-errors.js';
import type { CreateSubscriptionInput } from '../../clients/payments/payment-processor.js';
import { handleSandboxCardForm } from '../../clients/payments/sandbox-card-form.js';
import { SandboxProcessor } from '../../clients/payments/sandbox-processor.js';
import { StripeProcessor } from '../../clients/payments/stripe-processor.js';

const API_URL = 'https://api.example.test';

function setup() {
  const store = createMemorySandboxStore();
  const processor = new SandboxProcessor({ apiUrl: API_URL, store });
  return { store, processor };
}

/** Saves a card the way a person does: through the setup link and the card form. */
async function saveCard(
  processor: SandboxProcessor,
  store: ReturnType<typeof createMemorySandboxStore>,
  customerId: string,
  cardNumber: string,
): Promise<void> {
  const link = await processor.createSetupLink({ customerId, successUrl: 'https://app.example/ok', cancelUrl: 'https://app.example/no' });
  const token = new URL(link.url).searchParams.get('token');
  const answer = await handleSandboxCardForm(token, { card_number: cardNumber }, store);
  expect(answer.ok).toBe(true);
}

function order(customerId: string, overrides: Partial<CreateSubscriptionInput> = {}): CreateSubscriptionInput {
  return {
    accountId: 3,
    customerId,
    priceRef: 'plan:inboxes-monthly',
    quantity: 2,
    expected: { unitAmount: 1500, currency: 'USD', firstInvoice: 3000 },
    idempotencyKey: 'sandbox-order-0001',
    ...overrides,
  };
}

describe('sandbox processor', () => {
  it('derives one customer per account without storing anything', async () => {
    const { processor } = setup();
    expect(await processor.ensureCustomer({ id: 3, name: 'Acme' })).toEqual({ customerId: 'sbx_cus_3' });
    expect(await processor.ensureCustomer({ id: 3, name: 'Acme', customerId: 'sbx_cus_3' })).toEqual({ customerId: 'sbx_cus_3' });
    // A Stripe id left from an earlier configuration is not the sandbox's.
    expect(await processor.ensureCustomer({ id: 3, name: 'Acme', customerId: 'cus_123' })).toEqual({ customerId: 'sbx_cus_3' });
  });

  it('makes a setup link to the local card page with a random token that expires in an hour', async () => {
    const now = new Date('2026-11-25T10:00:00Z');
    const { store } = setup();
    const processor = new SandboxProcessor({ apiUrl: `${API_URL}/`, store, now: () => now });
    const a = await processor.createSetupLink({ customerId: 'sbx_cus_3', successUrl: 'https://app.example/ok', cancelUrl: 'https://app.example/no' });
    const b = await processor.createSetupLink({ customerId: 'sbx_cus_3', successUrl: 'https://app.example/ok', cancelUrl: 'https://app.example/no' });
    expect(a.url).toMatch(/^https:\/\/api\.example\.test\/sandbox\/card\?token=[A-Za-z0-9_-]{43}$/);
    expect(a.url).not.toBe(b.url);
    expect(a.expires_at).toBe('2026-11-25T11:00:00.000Z');
  });

  it('shows no card until one is saved, then its brand and last four', async () => {
    const { store, processor } = setup();
    expect(await processor.getPaymentMethod('sbx_cus_3')).toBeNull();
    await saveCard(processor, store, 'sbx_cus_3', '4242 4242 4242 4242');
    expect(await processor.getPaymentMethod('sbx_cus_3')).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12 });
  });

  it('charges the first invoice the service computed with the 4242 card', async () => {
    const { store, processor } = setup();
    await saveCard(processor, store, 'sbx_cus_3', '4242424242424242');
    const result = await processor.createSubscription(order('sbx_cus_3'));
    expect(result).toMatchObject({ status: 'active', quantity: 2, priceRef: 'plan:inboxes-monthly', replayed: false });
    expect(result.latestInvoice).toMatchObject({ amountPaid: 3000, currency: 'usd', status: 'paid' });
    expect(result.invoice).toMatchObject({ amount_paid: 3000, subscription_id: result.subscriptionId, status: 'paid', payment_failed: false });
    expect(store.subscriptions()).toHaveLength(1);
  });

  it('declines the 0341 card with a 402 and records nothing', async () => {
    const { store, processor } = setup();
    await saveCard(processor, store, 'sbx_cus_3', '4000000000000341');
    const error = await processor.createSubscription(order('sbx_cus_3')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardDeclinedError);
    expect(restAnswerOf(error)?.status).toBe(402);
    expect(store.subscriptions()).toHaveLength(0);
  });

  it('charges after a decline once a good card is saved, with the same key', async () => {
    const { store, processor } = setup();
    await saveCard(processor, store, 'sbx_cus_3', '4000000000000341');
    await expect(processor.createSubscription(order('sbx_cus_3'))).rejects.toBeInstanceOf(CardDeclinedError);
    await saveCard(processor, store, 'sbx_cus_3', '4242424242424242');
    expect((await processor.createSubscription(order('sbx_cus_3'))).status).toBe('active');
  });

  it('answers 409 with no card on file, even when the first invoice is free', async () => {
    const { store, processor } = setup();
    const error = await processor
      .createSubscription(order('sbx_cus_3', { expected: { unitAmount: 1500, currency: 'usd', firstInvoice: 0 } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoPaymentMethodError);
    expect(restAnswerOf(error)?.status).toBe(409);
    expect(store.subscriptions()).toHaveLength(0);
  });

  it('does not try a declining card when a code makes the first invoice free, as Stripe does not', async () => {
    const { store, processor } = setup();
    await saveCard(processor, store, 'sbx_cus_3', '4000000000000341');
    const result = await processor.createSubscription(order('sbx_cus_3', { expected: { unitAmount: 1500, currency: 'usd', firstInvoice: 0 } }));
    expect(result.latestInvoice?.amountPaid).toBe(0);
  });

  it('charges once for the same key sent twice, the second answer a replay', async () => {
    const { store, processor } = setup();
    await saveCard(processor, store, 'sbx_cus_3', '4242424242424242');
    const first = await processor.createSubscription(order('sbx_cus_3'));
    const second = await processor.createSubscription(order('sbx_cus_3'));
    expect(second).toMatchObject({ subscriptionId: first.subscriptionId, replayed: true });
    expect(store.subscriptions()).toHaveLength(1);
  });

  it('charges once for twenty simultaneous calls with one key, and twice for two keys', async () => {
    const { store, processor } = setup();
    await saveCard(processor, store, 'sbx_cus_3', '4242424242424242');
    const results = await Promise.all(Array.from({ length: 20 }, () => processor.createSubscription(order('sbx_cus_3'))));
    expect(new Set(results.map((r) => r.subscriptionId)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    await processor.createSubscription(order('sbx_cus_3', { idempotencyKey: 'sandbox-order-0002' }));
    expect(store.subscriptions()).toHaveLength(2);
  });

  it('refuses the same key for a different order', async () => {
    const { store, processor } = setup();
    await saveCard(processor, store, 'sbx_cus_3', '4242424242424242');
    await processor.createSubscription(order('sbx_cus_3'));
    await expect(processor.createSubscription(order('sbx_cus_3', { quantity: 5 }))).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(store.subscriptions()).toHaveLength(1);
  });

  it('finds the charge by our key after a restart, as the crash-recovery path needs', async () => {
    const { store, processor } = setup();
    await saveCard(processor, store, 'sbx_cus_3', '4242424242424242');
    const charged = await processor.createSubscription(order('sbx_cus_3'));
    const restarted = new SandboxProcessor({ apiUrl: API_URL, store });
    expect(await restarted.findSubscriptionByIdempotencyKey('sbx_cus_3', 'sandbox-order-0001')).toMatchObject({
      subscriptionId: charged.subscriptionId,
      replayed: true,
    });
    expect(await restarted.findSubscriptionByIdempotencyKey('sbx_cus_3', 'another-key-000')).toBeNull();
  });

  it('cancels a subscription', async () => {
    const { store, processor } = setup();
    await saveCard(processor, store, 'sbx_cus_3', '4242424242424242');
    const { subscriptionId } = await processor.createSubscription(order('sbx_cus_3'));
    await processor.cancelSubscription(subscriptionId);
    expect(store.subscriptions()[0]?.status).toBe('canceled');
  });
});

describe('choosing the processor', () => {
  it('uses the sandbox without STRIPE_SECRET_KEY and Stripe with it', () => {
    const store = createMemorySandboxStore();
    expect(createPaymentProcessor({ apiUrl: API_URL, sandboxStore: store, stripe: readSettings({}).stripe })).toBeInstanceOf(SandboxProcessor);
    expect(createPaymentProcessor({ apiUrl: API_URL, sandboxStore: store, stripe: readSettings({ STRIPE_SECRET_KEY: 'sk_test_x' }).stripe })).toBeInstanceOf(
      StripeProcessor,
    );
  });
});
