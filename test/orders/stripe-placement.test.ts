import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';
import { graphql } from '../support/test-service.js';
import { FREE_DOMAINS, orderBody, postJson, startOrderingService, type OrderingHarness } from './support/ordering-fixture.js';
import { postStripeEvent } from './support/stripe-webhooks.js';

const WEBHOOK_SECRET = 'whsec_ordering_test_0123456789';
let fake: FakeStripe;
let h: OrderingHarness;
const free = (() => {
  let i = 20;
  return () => FREE_DOMAINS[i++]!;
})();

beforeAll(async () => {
  fake = await startFakeStripe();
  fake.addPrice({ id: 'price_demo_google_unwarmed', unit_amount: 350 });
  fake.addPromotionCode({ code: 'WELCOME20', percent_off: 20, duration: 'once' });
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    env: { STRIPE_SECRET_KEY: fake.secretKey, STRIPE_API_BASE: fake.url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_TIMEOUT_MS: '1500' },
  });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

const place = (body: unknown, key: string, apiKey = h.service.demo.key) =>
  postJson(h.service, '/v1/orders', body, { key: apiKey, headers: { 'idempotency-key': key } });

/** One signed Stripe event to the service's webhook door (support/stripe-webhooks.ts). */
const webhook = (type: string, object: unknown, created?: number) => postStripeEvent(h.service, WEBHOOK_SECRET, type, object, created);

/** A person completes Stripe Checkout (setup mode) with a card; Stripe then tells us by webhook. */
async function saveCardAtStripe(apiKey: string, cardNumber: string): Promise<void> {
  const link = await postJson(
    h.service,
    '/v1/payment-method/setup-link',
    { success_url: 'https://example.com/s', cancel_url: 'https://example.com/c' },
    { key: apiKey },
  );
  expect(link.status).toBe(200);
  const sessionId = String(link.body.url).split('/').pop();
  const completed = await fetch(`${fake.url}/__test/checkout/sessions/${sessionId}/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ card_number: cardNumber }),
  });
  const session = await completed.json();
  expect((await webhook('checkout.session.completed', session)).status).toBe(200);
}

describe('placing through the Stripe SDK against the local fake', () => {
  let placed: any;
  let firstBody: Record<string, unknown>;

  it('the setup link is a Checkout session; after it, GET /v1/payment-method shows the card', async () => {
    await saveCardAtStripe(h.service.demo.key, '4242424242424242');
    const card = await (await h.service.api('/v1/payment-method')).json();
    expect(card).toMatchObject({ on_file: true, brand: 'visa', last4: '4242' });
  });

  it('places an order: one Subscription with the plan Price and quantity, the promotion code as a discount, one charge', async () => {
    firstBody = orderBody([free(), free()], 2, { promotion_code: 'WELCOME20' });
    const response = await place(firstBody, 'stripe-order-0001');
    expect(response.status).toBe(200);
    placed = response.body;
    expect(placed).toMatchObject({ quantity: 4, replayed: false, charged: { amount: 1120, currency: 'usd' } });
    expect(placed.subscription_id).toMatch(/^sub_/);
    expect(fake.charges.filter((c) => c.amount === 1120)).toHaveLength(1);
    const created = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions');
    expect(created?.params).toMatchObject({ payment_behavior: 'error_if_incomplete', items: [{ price: 'price_demo_google_unwarmed', quantity: '4' }] });
    expect(created?.idempotencyKey).toMatch(/^order-/);
  });

  it('a retry with the same key replays and charges nothing more; another body with that key is a 409', async () => {
    const before = fake.charges.length;
    const same = await place(firstBody, 'stripe-order-0001');
    expect(same.status).toBe(200);
    expect(same.body).toEqual({ ...placed, replayed: true });
    const other = await place(orderBody([free()], 1), 'stripe-order-0001');
    expect(other.status).toBe(409);
    expect(fake.charges.length).toBe(before);
  });

  it('billing mirrors what Stripe charged, and a failed payment webhook makes it past due', async () => {
    const billing = await (await h.service.api('/v1/portal/billing')).json();
    const invoice = billing.invoices.find((i: any) => i.order_reference === placed.reference);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 1120 });
    const stripeInvoice = {
      id: 'in_renewal_1',
      object: 'invoice',
      customer: fake.subscriptions().find((s) => s.id === placed.subscription_id)?.customer,
      number: 'RENEW-0001',
      amount_due: 1400,
      amount_paid: 0,
      currency: 'usd',
      status: 'open',
      attempt_count: 1,
      created: Math.floor(Date.now() / 1000) - 3600,
      due_date: null,
      status_transitions: { paid_at: null },
      parent: { subscription_details: { subscription: placed.subscription_id } },
    };
    expect((await webhook('invoice.payment_failed', stripeInvoice)).status).toBe(200);
    // The same event again, and an older one saying paid, change nothing.
    expect((await webhook('invoice.payment_failed', stripeInvoice)).status).toBe(200);
    expect((await webhook('invoice.paid', { ...stripeInvoice, status: 'paid', amount_paid: 1400 }, Math.floor(Date.now() / 1000) - 7200)).status).toBe(200);
    const after = await (await h.service.api('/v1/portal/billing')).json();
    const due = after.past_due_invoices.find((i: any) => i.number === 'RENEW-0001');
    expect(due).toMatchObject({ amount_due: 1400, order_reference: placed.reference, past_due: true });
  });

  it('a subscription webhook updates the order status', async () => {
    const subscription = { ...fake.subscriptions().find((s) => s.id === placed.subscription_id), status: 'past_due' };
    expect((await webhook('customer.subscription.updated', subscription)).status).toBe(200);
    const orders = await (await h.service.api('/v1/portal/orders')).json();
    expect(orders.orders.find((o: any) => o.subscription_id === placed.subscription_id).status).toBe('past_due');
  });

  it("Stripe's canceled is the order's cancelled on every door, an enum on GraphQL; a status we do not know changes nothing", async () => {
    const subscription = fake.subscriptions().find((s) => s.id === placed.subscription_id);
    const statusOf = async () =>
      (await (await h.service.api('/v1/portal/orders')).json()).orders.find((o: any) => o.subscription_id === placed.subscription_id).status;
    expect((await webhook('customer.subscription.updated', { ...subscription, status: 'active' })).status).toBe(200);
    // A status Stripe might add one day: not applied (the order keeps active), never shown.
    expect((await webhook('customer.subscription.updated', { ...subscription, status: 'frozen_for_review' })).status).toBe(200);
    expect(await statusOf()).toBe('active');

    expect((await webhook('customer.subscription.deleted', { ...subscription, status: 'canceled', canceled_at: Math.floor(Date.now() / 1000) })).status).toBe(
      200,
    );
    expect(await statusOf()).toBe('cancelled');
    const viaGraphql = await graphql(h.service, '{ orders { subscriptionId status } }');
    expect(viaGraphql.body.errors).toBeUndefined();
    expect(viaGraphql.body.data.orders.find((o: any) => o.subscriptionId === placed.subscription_id).status).toBe('cancelled');
    const typed = await graphql(h.service, '{ __type(name: "OrderStatus") { enumValues { name } } }');
    expect(typed.body.data.__type.enumValues.map((v: { name: string }) => v.name).sort()).toEqual([
      'active',
      'cancelled',
      'incomplete',
      'past_due',
      'paused',
      'trialing',
      'unpaid',
    ]);

    const client = new Client({ name: 'order-status-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${h.service.demo.key}` } } }),
    );
    try {
      const listed = await client.callTool({ name: 'list_orders', arguments: {} });
      const text = (listed.content as { type: string; text: string }[])[0]?.text ?? '';
      expect(JSON.parse(text).orders.find((o: any) => o.subscription_id === placed.subscription_id).status).toBe('cancelled');
    } finally {
      await client.close();
    }
  });

  it('a webhook with a bad signature is a 400 and changes nothing', async () => {
    const response = await h.service.api('/webhooks/stripe', { method: 'POST', key: null, headers: { 'stripe-signature': 't=1,v1=bad' }, body: '{}' });
    expect(response.status).toBe(400);
  });

  it('a declined card is a 402 with nothing charged and nothing recorded', async () => {
    const account = await h.service.seedAccount();
    await saveCardAtStripe(account.key, '4000000000000341');
    const before = fake.charges.length;
    const domain = free();
    const response = await place(orderBody([domain], 1), 'stripe-declined-1', account.key);
    expect(response.status).toBe(402);
    expect(fake.charges.length).toBe(before);
    expect(JSON.stringify(await (await h.service.api('/v1/portal/dashboard', { key: account.key })).json())).not.toContain(domain);
  });

  it('the processor unreachable is a 502 with nothing charged; the retry with the same key charges once', async () => {
    const account = await h.service.seedAccount();
    await saveCardAtStripe(account.key, '4242424242424242');
    const before = fake.charges.length;
    // The SDK retries a refused connection once with the same idempotency key: refuse both.
    fake.failNext(2, 'refuse', { method: 'POST', path: '/v1/subscriptions' });
    const body = orderBody([free()], 1);
    const down = await place(body, 'stripe-unreachable-1', account.key);
    expect([down.status, down.body.code]).toEqual([502, 'payment_processor_unavailable']);
    expect(fake.charges.length).toBe(before);
    const retry = await place(body, 'stripe-unreachable-1', account.key);
    expect(retry.status).toBe(200);
    expect(fake.charges.length).toBe(before + 1);
  });

  it('the processor timing out is a 502: nothing charged, and the order is not recorded as placed', async () => {
    const account = await h.service.seedAccount();
    await saveCardAtStripe(account.key, '4242424242424242');
    const before = fake.charges.length;
    // The call to create the subscription hangs past STRIPE_TIMEOUT_MS (the SDK does not retry a timeout).
    fake.failNext(1, 'hang', { method: 'POST', path: '/v1/subscriptions' });
    const domain = free();
    const started = Date.now();
    const down = await place(orderBody([domain], 1), 'stripe-timeout-1', account.key);
    expect([down.status, down.body.code]).toEqual([502, 'payment_processor_unavailable']);
    expect(down.body.detail).toMatch(/retry/i);
    // The 502 itself says the call was cut at STRIPE_TIMEOUT_MS (a hang never answers): no stopwatch.
    expect(fake.charges.length).toBe(before);
    const orders = await (await h.service.api('/v1/portal/orders', { key: account.key })).json();
    const dashboard = JSON.stringify(await (await h.service.api('/v1/portal/dashboard', { key: account.key })).json());
    expect(orders.orders.some((o: any) => o.status === 'active' && o.created_at > new Date(started).toISOString())).toBe(false);
    expect(dashboard).not.toContain(domain);
  });

  it('Stripe charged but its answer was lost: the service finds the subscription by key and records one order', async () => {
    const account = await h.service.seedAccount();
    await saveCardAtStripe(account.key, '4242424242424242');
    const before = fake.charges.length;
    fake.failNext(1, 'hang_after_processing', { method: 'POST', path: '/v1/subscriptions' });
    const response = await place(orderBody([free()], 1), 'stripe-lost-answer-1', account.key);
    expect(response.status).toBe(200);
    expect(fake.charges.length).toBe(before + 1);
    const orders = await (await h.service.api('/v1/portal/orders', { key: account.key })).json();
    expect(orders.orders.filter((o: any) => o.subscription_id === response.body.subscription_id)).toHaveLength(1);
  });
});
