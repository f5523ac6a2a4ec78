import Stripe from 'stripe';
import type { FakeStripe } from '../../support/fake-stripe.js';
import type { TestService } from '../../support/test-service.js';
import { postJson } from './ordering-fixture.js';

/** Posts one Stripe event to the service's webhook door, signed with `secret` as Stripe signs it. */
export function postStripeEvent(service: TestService, secret: string, type: string, object: unknown, created = Math.floor(Date.now() / 1000)) {
  const payload = JSON.stringify({
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type,
    created,
    api_version: Stripe.API_VERSION,
    livemode: false,
    data: { object },
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  });
  return service.api('/webhooks/stripe', {
    method: 'POST',
    key: null,
    headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    body: payload,
  });
}

/** A person completes Stripe Checkout (setup mode) with a card at the fake; Stripe then tells the service by webhook. */
export async function saveCardAtFakeStripe(service: TestService, fake: FakeStripe, secret: string, cardNumber: string): Promise<void> {
  const link = await postJson(service, '/v1/payment-method/setup-link', { success_url: 'https://example.com/s', cancel_url: 'https://example.com/c' });
  if (link.status !== 200) throw new Error(`setup link refused: ${JSON.stringify(link.body)}`);
  const sessionId = String(link.body.url).split('/').pop();
  const completed = await fetch(`${fake.url}/__test/checkout/sessions/${sessionId}/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ card_number: cardNumber }),
  });
  const hooked = await postStripeEvent(service, secret, 'checkout.session.completed', await completed.json());
  if (hooked.status !== 200) throw new Error(`checkout.session.completed refused: ${await hooked.text()}`);
}

/** Stripe's word that the order's subscription was cancelled (customer.subscription.deleted), as the fake holds it. */
export function cancelAtFakeStripe(service: TestService, fake: FakeStripe, secret: string, subscriptionId: string) {
  const subscription = fake.subscriptions().find((s) => s.id === subscriptionId);
  if (!subscription) throw new Error(`the fake holds no subscription ${subscriptionId}`);
  return postStripeEvent(service, secret, 'customer.subscription.deleted', { ...subscription, status: 'canceled', canceled_at: Math.floor(Date.now() / 1000) });
}
