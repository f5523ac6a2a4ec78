import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import { mirrorFromStripeEvent } from '../../clients/payments/mirror-stripe-event.js';
import { StripeProcessor, createStripeClient } from '../../clients/payments/stripe-processor.js';
import type { StripeProcessorConfig } from '../../config/settings.js';
import { verifyStripeWebhook } from '../../clients/payments/verify-stripe-webhook.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';

const SECRET = 'whsec_test_0123456789abcdef';

let fake: FakeStripe;
let invoice: Stripe.Invoice;
let subscription: Stripe.Subscription;

// Real objects from the fake (Stripe's shapes), wrapped in events as Stripe would send them.
beforeAll(async () => {
  fake = await startFakeStripe();
  fake.addPrice({ id: 'price_m', unit_amount: 1500 });
  const config: StripeProcessorConfig = { secretKey: fake.secretKey, apiBase: fake.url, timeoutMs: 2000, maxNetworkRetries: 0, setupCurrency: 'usd' };
  const processor = new StripeProcessor(config);
  const { customerId } = await processor.ensureCustomer({ id: 1, name: 'Acme' });
  fake.saveCard(customerId, '4242424242424242');
  const result = await processor.createSubscription({
    accountId: 1,
    customerId,
    priceRef: 'price_m',
    quantity: 2,
    expected: { unitAmount: 1500, currency: 'usd', firstInvoice: 3000 },
    idempotencyKey: 'webhook-order-1',
  });
  const stripe = createStripeClient(config);
  invoice = await stripe.invoices.retrieve(result.latestInvoice?.id as string);
  subscription = await stripe.subscriptions.retrieve(result.subscriptionId);
});

afterAll(async () => {
  await fake.close();
});

function event(type: string, object: unknown, id = 'evt_1'): string {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    created: 1_800_000_000,
    api_version: Stripe.API_VERSION,
    livemode: false,
    data: { object },
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  });
}

describe('webhook signatures', () => {
  it('accepts a body signed with the webhook secret and returns the event', () => {
    const body = event('invoice.paid', invoice);
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
    const verified = verifyStripeWebhook(body, header, SECRET);
    expect(verified.type).toBe('invoice.paid');
    expect(verified.id).toBe('evt_1');
  });

  it('accepts the raw body as a Buffer too', () => {
    const body = event('invoice.paid', invoice);
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
    expect(verifyStripeWebhook(Buffer.from(body), header, SECRET).type).toBe('invoice.paid');
  });

  it('refuses a body signed with another secret with a 400', () => {
    const body = event('invoice.paid', invoice);
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_someone_else' });
    const error = (() => {
      try {
        verifyStripeWebhook(body, header, SECRET);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect(restAnswerOf(error)?.status).toBe(400);
    expect((error as DomainError).code).toBe('invalid_webhook_signature');
  });

  it('refuses a body changed after signing', () => {
    const body = event('invoice.paid', invoice);
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
    expect(() => verifyStripeWebhook(body.replace('"amount_paid":3000', '"amount_paid":1'), header, SECRET)).toThrow(DomainError);
  });

  it('refuses a signature older than the tolerance (a replayed delivery)', () => {
    const body = event('invoice.paid', invoice);
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(() => verifyStripeWebhook(body, header, SECRET)).toThrow(/too old/);
  });

  it('refuses a delivery with no signature header', () => {
    expect(() => verifyStripeWebhook(event('invoice.paid', invoice), undefined, SECRET)).toThrow(/Stripe-Signature header is missing/);
  });
});

describe('mirroring events for the billing page', () => {
  it('turns invoice.paid into an invoice record keyed by the invoice id', () => {
    const record = mirrorFromStripeEvent(JSON.parse(event('invoice.paid', invoice)) as Stripe.Event);
    expect(record).toMatchObject({
      kind: 'invoice',
      event_id: 'evt_1',
      event_type: 'invoice.paid',
      event_created: 1_800_000_000,
      invoice: {
        processor_id: invoice.id,
        amount_due: 3000,
        amount_paid: 3000,
        currency: 'usd',
        status: 'paid',
        subscription_id: subscription.id,
        payment_failed: false,
      },
    });
    const paidAt = record?.kind === 'invoice' ? record.invoice.paid_at : null;
    expect(Date.parse(paidAt ?? ''), `paid_at ${paidAt}`).not.toBeNaN();
  });

  it('marks an open invoice with a failed attempt as past due', () => {
    const failed = { ...invoice, status: 'open', amount_paid: 0, attempt_count: 1, status_transitions: { ...invoice.status_transitions, paid_at: null } };
    const record = mirrorFromStripeEvent(JSON.parse(event('invoice.payment_failed', failed)) as Stripe.Event);
    expect(record).toMatchObject({ kind: 'invoice', invoice: { status: 'open', amount_paid: 0, payment_failed: true } });
  });

  it('gives the same record for a duplicate delivery, so storing it twice changes nothing', () => {
    const body = event('invoice.paid', invoice, 'evt_dup');
    expect(mirrorFromStripeEvent(JSON.parse(body) as Stripe.Event)).toEqual(mirrorFromStripeEvent(JSON.parse(body) as Stripe.Event));
  });

  it('turns customer.subscription.deleted into a canceled subscription record with our idempotency key', () => {
    const canceled = { ...subscription, status: 'canceled', canceled_at: 1_800_000_100 };
    const record = mirrorFromStripeEvent(JSON.parse(event('customer.subscription.deleted', canceled)) as Stripe.Event);
    expect(record).toMatchObject({
      kind: 'subscription',
      subscription: {
        processor_id: subscription.id,
        status: 'canceled',
        quantity: 2,
        idempotency_key: 'webhook-order-1',
        canceled_at: new Date(1_800_000_100_000).toISOString(),
      },
    });
  });

  it('ignores events the billing page does not use', () => {
    expect(mirrorFromStripeEvent(JSON.parse(event('customer.created', { id: 'cus_1', object: 'customer' })) as Stripe.Event)).toBeNull();
  });
});
