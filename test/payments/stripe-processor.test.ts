import { readSettings } from '../../config/settings.js';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import {
  CardDeclinedError,
  IdempotencyKeyReusedError,
  NoPaymentMethodError,
  PaymentInProgressError,
  ProcessorUnavailableError,
  PromotionCodeRefusedError,
} from '../../clients/payments/payment-errors.js';
import type { CreateSubscriptionInput } from '../../clients/payments/payment-processor.js';
import { StripeProcessor, createStripeClient, stripeIdempotencyKey } from '../../clients/payments/stripe-processor.js';
import type { StripeProcessorConfig } from '../../config/settings.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';

// Each Stripe call gets this long before it counts as "processor unreachable".
const TIMEOUT_MS = 400;

let fake: FakeStripe;
let config: StripeProcessorConfig;
let processor: StripeProcessor;

beforeEach(async () => {
  fake = await startFakeStripe();
  fake.addPrice({ id: 'price_inboxes_monthly', unit_amount: 1500, currency: 'usd', interval: 'month' });
  config = { secretKey: fake.secretKey, apiBase: fake.url, timeoutMs: TIMEOUT_MS, maxNetworkRetries: 0, setupCurrency: 'usd' };
  processor = new StripeProcessor(config);
});

afterEach(async () => {
  await fake.close();
});

async function customerWithCard(cardNumber = '4242424242424242', accountId = 7): Promise<string> {
  const { customerId } = await processor.ensureCustomer({ id: accountId, name: 'Acme Outreach' });
  fake.saveCard(customerId, cardNumber);
  return customerId;
}

function order(customerId: string, overrides: Partial<CreateSubscriptionInput> = {}): CreateSubscriptionInput {
  return {
    accountId: 7,
    customerId,
    priceRef: 'price_inboxes_monthly',
    quantity: 3,
    expected: { unitAmount: 1500, currency: 'usd', firstInvoice: 4500 },
    idempotencyKey: 'order-key-0001',
    metadata: { sku: 'inboxes-monthly' },
    ...overrides,
  };
}

const subscriptionCreates = (): number => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/subscriptions').length;

describe('customers and the card setup link', () => {
  it('creates one customer per account even when two first requests race, and reuses it afterwards', async () => {
    const [a, b] = await Promise.all([processor.ensureCustomer({ id: 42, name: 'Acme' }), processor.ensureCustomer({ id: 42, name: 'Acme' })]);
    expect(a.customerId).toMatch(/^cus_/);
    expect(b.customerId).toBe(a.customerId);
    const again = await processor.ensureCustomer({ id: 42, name: 'Acme Renamed', customerId: a.customerId });
    expect(again.customerId).toBe(a.customerId);
    const stripe = createStripeClient(config);
    const customer = (await stripe.customers.retrieve(a.customerId)) as Stripe.Customer;
    expect(customer.name).toBe('Acme Renamed');
    expect(customer.metadata.account_id).toBe('42');
  });

  it('replaces a stored customer id that Stripe no longer has', async () => {
    const { customerId } = await processor.ensureCustomer({ id: 5, name: 'Gone' });
    await createStripeClient(config).customers.del(customerId);
    const replaced = await processor.ensureCustomer({ id: 5, name: 'Gone', customerId });
    expect(replaced.customerId).not.toBe(customerId);
  });

  it('makes the setup link a setup-mode Checkout session for the customer, with our return urls', async () => {
    const { customerId } = await processor.ensureCustomer({ id: 7, name: 'Acme' });
    const link = await processor.createSetupLink({ customerId, successUrl: 'https://app.example/ok', cancelUrl: 'https://app.example/no' });
    expect(link.url.startsWith(`${fake.url}/`)).toBe(true);
    expect(Date.parse(link.expires_at)).toBeGreaterThan(Date.now());
    const sent = fake.requests.find((r) => r.path === '/v1/checkout/sessions');
    expect(sent?.params).toMatchObject({
      mode: 'setup',
      customer: customerId,
      currency: 'usd',
      success_url: 'https://app.example/ok',
      cancel_url: 'https://app.example/no',
    });
  });

  it('shows no card before the person completes the setup page, and brand and last four after', async () => {
    const { customerId } = await processor.ensureCustomer({ id: 7, name: 'Acme' });
    expect(await processor.getPaymentMethod(customerId)).toBeNull();
    const link = await processor.createSetupLink({ customerId, successUrl: 'https://app.example/ok', cancelUrl: 'https://app.example/no' });
    const sessionId = link.url.split('/').pop() as string;
    const done = await fetch(`${fake.url}/__test/checkout/sessions/${sessionId}/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ card_number: '4242424242424242' }),
    });
    expect(done.status).toBe(200);
    expect(await processor.getPaymentMethod(customerId)).toMatchObject({ brand: 'visa', last4: '4242' });
  });
});

describe('charging a subscription', () => {
  it('charges the first invoice at the plan price times the computed quantity, with error_if_incomplete', async () => {
    const customerId = await customerWithCard();
    const result = await processor.createSubscription(order(customerId));
    expect(result).toMatchObject({ status: 'active', quantity: 3, priceRef: 'price_inboxes_monthly', replayed: false });
    expect(result.latestInvoice).toMatchObject({ amountPaid: 4500, currency: 'usd', status: 'paid' });
    expect(result.invoice).toMatchObject({ amount_paid: 4500, subscription_id: result.subscriptionId, payment_failed: false });
    expect(fake.charges).toHaveLength(1);
    expect(fake.charges[0]?.amount).toBe(4500);

    const sent = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions');
    expect(sent?.params).toMatchObject({
      customer: customerId,
      payment_behavior: 'error_if_incomplete',
      items: [{ price: 'price_inboxes_monthly', quantity: '3' }],
      metadata: { order_idempotency_key: 'order-key-0001', account_id: '7', sku: 'inboxes-monthly' },
    });
    expect(sent?.params.default_payment_method).toMatch(/^pm_/);
    // Our key is never sent as-is: Stripe gets a hash bound to the account and the card.
    expect(sent?.idempotencyKey).toMatch(/^order-[0-9a-f]{64}$/);
  });

  it('applies a promotion code, looked up by its customer-facing code, as a subscription discount', async () => {
    const promo = fake.addPromotionCode({ code: 'LAUNCH50', percent_off: 50, duration: 'repeating', duration_in_months: 3 });
    const customerId = await customerWithCard();
    const result = await processor.createSubscription(order(customerId, { promotionCode: 'LAUNCH50' }));
    expect(result.latestInvoice?.amountPaid).toBe(2250);
    const sent = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions');
    expect(sent?.params.discounts).toEqual([{ promotion_code: promo.id }]);
  });

  it('refuses a promotion code Stripe does not have with a 402 and charges nothing', async () => {
    const customerId = await customerWithCard();
    const error = await processor.createSubscription(order(customerId, { promotionCode: 'NOSUCHCODE' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PromotionCodeRefusedError);
    expect(restAnswerOf(error)?.status).toBe(402);
    expect(fake.charges).toHaveLength(0);
  });

  it('refuses an expired promotion code that Stripe would not redeem with a 402 and charges nothing', async () => {
    const promo = fake.addPromotionCode({ code: 'OLD', percent_off: 10, expires_at: Math.floor(Date.now() / 1000) - 60 });
    const customerId = await customerWithCard();
    const error = await processor.createSubscription(order(customerId, { promotionCode: promo.id as string })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PromotionCodeRefusedError);
    expect(fake.charges).toHaveLength(0);
  });

  it('answers 409 with no card on file and never asks Stripe to create the subscription', async () => {
    const { customerId } = await processor.ensureCustomer({ id: 7, name: 'Acme' });
    const error = await processor.createSubscription(order(customerId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoPaymentMethodError);
    expect(restAnswerOf(error)?.status).toBe(409);
    expect(subscriptionCreates()).toBe(0);
  });

  it('turns a declined card into a 402 with nothing charged and no subscription left behind', async () => {
    const customerId = await customerWithCard('4000000000000341');
    const error = await processor.createSubscription(order(customerId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardDeclinedError);
    expect(restAnswerOf(error)?.status).toBe(402);
    expect((error as CardDeclinedError).declineCode).toBe('generic_decline');
    expect(fake.charges).toHaveLength(0);
    expect(fake.declines).toHaveLength(1);
    expect(fake.subscriptions()).toHaveLength(0);
  });

  it('after a decline, a new card and a retry with the same key charges the new card once', async () => {
    const customerId = await customerWithCard('4000000000000341');
    await expect(processor.createSubscription(order(customerId))).rejects.toBeInstanceOf(CardDeclinedError);
    fake.saveCard(customerId, '4242424242424242', { makeDefault: true });
    const result = await processor.createSubscription(order(customerId));
    expect(result.status).toBe('active');
    expect(fake.charges).toHaveLength(1);
  });
});

describe('processor unreachable', () => {
  it('answers 502 when nothing listens at the Stripe address, having charged nothing', async () => {
    const customerId = await customerWithCard();
    await fake.close();
    const error = await processor.createSubscription(order(customerId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessorUnavailableError);
    expect(restAnswerOf(error)?.status).toBe(502);
    expect(fake.charges).toHaveLength(0);
  });

  it('answers 502 when Stripe drops the connection on the create, after confirming nothing was charged', async () => {
    const customerId = await customerWithCard();
    // Twice: the SDK retries a reset connection once, with the same idempotency key, even with
    // maxNetworkRetries 0 (stripe-node issue 1040).
    fake.failNext(2, 'refuse', { method: 'POST', path: '/v1/subscriptions' });
    const error = await processor.createSubscription(order(customerId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessorUnavailableError);
    expect((error as ProcessorUnavailableError).verified).toBe(true);
    expect(fake.charges).toHaveLength(0);
  });

  it('answers 502 when the create hangs: cut at the timeout, not sent again, then verified', async () => {
    const customerId = await customerWithCard();
    fake.failNext(1, 'hang', { method: 'POST', path: '/v1/subscriptions' });
    const creates = subscriptionCreates();
    const started = Date.now();
    const error = await processor.createSubscription(order(customerId)).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(ProcessorUnavailableError);
    expect((error as ProcessorUnavailableError).verified).toBe(true);
    // It waited for the timeout (a lower bound: a slow machine only lengthens it) ...
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    // ... and then gave up on the create rather than sending it again (counted, not timed).
    expect(subscriptionCreates() - creates).toBe(1);
    expect(fake.charges).toHaveLength(0);
  });

  it('says it could not verify when the verification call hangs too, and the retry then charges once', async () => {
    const customerId = await customerWithCard();
    fake.failNext(1, 'hang', { method: 'POST', path: '/v1/subscriptions' });
    // The lookup before the create goes through; the one after the failed create hangs.
    fake.failNext(1, 'hang', { method: 'GET', path: '/v1/subscriptions', skip: 1 });
    const error = await processor.createSubscription(order(customerId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessorUnavailableError);
    expect((error as ProcessorUnavailableError).verified).toBe(false);
    expect(fake.charges).toHaveLength(0);
    const result = await processor.createSubscription(order(customerId));
    expect(result.status).toBe('active');
    expect(fake.charges).toHaveLength(1);
  });

  it('returns the subscription when Stripe charged but the answer was lost, and a retry does not charge again', async () => {
    const customerId = await customerWithCard();
    fake.failNext(1, 'hang_after_processing', { method: 'POST', path: '/v1/subscriptions' });
    const first = await processor.createSubscription(order(customerId));
    expect(first).toMatchObject({ status: 'active', replayed: false });
    expect(fake.charges).toHaveLength(1);
    const retry = await processor.createSubscription(order(customerId));
    expect(retry).toMatchObject({ subscriptionId: first.subscriptionId, replayed: true });
    expect(fake.charges).toHaveLength(1);
  });
});

describe('idempotency', () => {
  it('charges once for the same key sent twice, and says the second answer is a replay', async () => {
    const customerId = await customerWithCard();
    const first = await processor.createSubscription(order(customerId));
    const second = await processor.createSubscription(order(customerId));
    expect(second.subscriptionId).toBe(first.subscriptionId);
    expect(second.replayed).toBe(true);
    expect(second.latestInvoice?.amountPaid).toBe(4500);
    expect(fake.subscriptions()).toHaveLength(1);
    expect(fake.charges).toHaveLength(1);
  });

  it('charges once for ten simultaneous calls with one key', async () => {
    const customerId = await customerWithCard();
    // The race is the subject, not the 400 ms timeout: on a loaded machine ten calls at once can take
    // longer than that, and a call cut by it would fail as "processor unreachable" instead of racing.
    const patient = new StripeProcessor({ ...config, timeoutMs: 10_000 });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => patient.createSubscription(order(customerId))));
    const ids = new Set(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.subscriptionId] : [])));
    expect(ids.size).toBe(1);
    const refusals = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    for (const reason of refusals) expect(reason).toBeInstanceOf(PaymentInProgressError);
    expect(fake.charges).toHaveLength(1);
  });

  it('charges twice for two different keys', async () => {
    const customerId = await customerWithCard();
    await processor.createSubscription(order(customerId, { idempotencyKey: 'order-key-A' }));
    await processor.createSubscription(order(customerId, { idempotencyKey: 'order-key-B' }));
    expect(fake.charges).toHaveLength(2);
  });

  it('refuses the same key for a different quantity, charging nothing more', async () => {
    const customerId = await customerWithCard();
    await processor.createSubscription(order(customerId));
    const error = await processor.createSubscription(order(customerId, { quantity: 4 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(fake.charges).toHaveLength(1);
  });

  it('finds the subscription by our key after a crash between the charge and the commit', async () => {
    const customerId = await customerWithCard();
    const charged = await processor.createSubscription(order(customerId, { idempotencyKey: 'crash-key-123' }));
    // A new process: nothing in memory survives, only Stripe knows.
    const restarted = new StripeProcessor(config);
    const found = await restarted.findSubscriptionByIdempotencyKey(customerId, 'crash-key-123');
    expect(found).toMatchObject({ subscriptionId: charged.subscriptionId, quantity: 3, replayed: true });
    expect(found?.latestInvoice?.amountPaid).toBe(4500);
    expect(await restarted.findSubscriptionByIdempotencyKey(customerId, 'other-key-456')).toBeNull();
  });

  it('finds the subscription even when the card was replaced between the crash and the retry', async () => {
    const customerId = await customerWithCard();
    const charged = await processor.createSubscription(order(customerId));
    fake.saveCard(customerId, '5555555555554444', { makeDefault: true });
    const retry = await processor.createSubscription(order(customerId));
    expect(retry.subscriptionId).toBe(charged.subscriptionId);
    expect(fake.charges).toHaveLength(1);
  });

  it('derives the Stripe key from the account, the caller key and the card, as a hash', () => {
    const key = stripeIdempotencyKey(7, 'order-key-0001', 'pm_1');
    expect(key).toBe(stripeIdempotencyKey(7, 'order-key-0001', 'pm_1'));
    expect(key).not.toBe(stripeIdempotencyKey(8, 'order-key-0001', 'pm_1'));
    expect(key).not.toBe(stripeIdempotencyKey(7, 'order-key-0002', 'pm_1'));
    expect(key).not.toBe(stripeIdempotencyKey(7, 'order-key-0001', 'pm_2'));
    expect(key).not.toContain('order-key-0001');
  });

  it('the fake refuses one Stripe idempotency key reused with other parameters, as Stripe does', async () => {
    const stripe = createStripeClient(config);
    await stripe.customers.create({ name: 'one' }, { idempotencyKey: 'same-key-1' });
    const replay = await stripe.customers.create({ name: 'one' }, { idempotencyKey: 'same-key-1' });
    expect(replay.lastResponse.headers['idempotent-replayed']).toBe('true');
    const error = await stripe.customers.create({ name: 'two' }, { idempotencyKey: 'same-key-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((error as Stripe.errors.StripeError).statusCode).toBe(400);
  });
});

describe("the fake's test controls over HTTP", () => {
  it('saves a card, queues faults and counts charges through /__test/', async () => {
    const { customerId } = await processor.ensureCustomer({ id: 7, name: 'Acme' });
    const post = (path: string, body: unknown): Promise<Response> =>
      fetch(`${fake.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post(`/__test/customers/${customerId}/cards`, { number: '4242424242424242' })).status).toBe(200);
    expect((await post('/__test/faults', { mode: 'server_error', count: 1, method: 'POST', path: '/v1/subscriptions' })).status).toBe(200);
    await expect(processor.createSubscription(order(customerId))).rejects.toBeInstanceOf(ProcessorUnavailableError);
    await processor.createSubscription(order(customerId, { idempotencyKey: 'after-fault-1' }));
    const charges = (await (await fetch(`${fake.url}/__test/charges`)).json()) as { count: number };
    expect(charges.count).toBe(1);
  });

  it('refuses a request without the secret key, as Stripe does', async () => {
    const error = await new StripeProcessor({ ...config, secretKey: 'sk_test_wrong' }).ensureCustomer({ id: 1, name: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });
});

describe('compensation', () => {
  it('cancels a subscription, and cancelling it again is harmless', async () => {
    const customerId = await customerWithCard();
    const { subscriptionId } = await processor.createSubscription(order(customerId));
    await processor.cancelSubscription(subscriptionId);
    await processor.cancelSubscription(subscriptionId);
    expect(fake.subscriptions()[0]?.status).toBe('canceled');
  });
});

describe('configuration', () => {
  it('is null without STRIPE_SECRET_KEY, so the sandbox serves', () => {
    expect(readSettings({}).stripe).toBeNull();
  });

  it('reads the API base and timeout, and turns SDK retries off against a local base', () => {
    expect(readSettings({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_BASE: 'http://127.0.0.1:12111', STRIPE_TIMEOUT_MS: '1500' }).stripe).toEqual({
      secretKey: 'sk_test_x',
      apiBase: 'http://127.0.0.1:12111',
      timeoutMs: 1500,
      maxNetworkRetries: 0,
      setupCurrency: 'usd',
      webhookSecret: null,
    });
    expect(readSettings({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_1' }).stripe?.webhookSecret).toBe('whsec_1');
    expect(readSettings({ STRIPE_SECRET_KEY: 'sk_live_x' }).stripe?.maxNetworkRetries).toBe(1);
  });

  it('fails at start-up on a malformed timeout or API base', () => {
    expect(() => readSettings({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_TIMEOUT_MS: 'soon' }).stripe).toThrow(/STRIPE_TIMEOUT_MS/);
    expect(() => readSettings({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_BASE: 'ftp://x' }).stripe).toThrow(/STRIPE_API_BASE/);
  });
});
