import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ServiceConfig, StripeProcessorConfig } from '../config/settings.js';
import { learnServiceOrigin } from '../clients/payments/service-origin.js';
import type { PaymentProcessor } from '../clients/payments/payment-processor.js';
import type { SandboxStore } from '../clients/payments/sandbox-store.js';
import { createPaymentProcessor } from '../clients/payments/create-payment-processor.js';
import { createKyselySandboxStore } from '../clients/payments/kysely-sandbox-store.js';

export interface ServicePayments {
  readonly processor: PaymentProcessor;
  readonly sandboxStore: SandboxStore;
}

const learners = new WeakMap<PaymentProcessor, (origin: string) => void>();
const webhookSecrets = new WeakMap<PaymentProcessor, string>();

/**
 * The processor for this process: Stripe when STRIPE_SECRET_KEY is set, else the sandbox over the
 * database. The sandbox's card link is
 * `{api_url}/sandbox/card`; when the service was started on port 0 (tests) the configured URL has no
 * real port, so the listener's origin is learned from the first request (see useListenerOrigin).
 */
export function createServicePayments(db: Kysely<Database>, config: ServiceConfig, stripe: StripeProcessorConfig | null): ServicePayments {
  const sandboxStore = createKyselySandboxStore(db);
  let current = createPaymentProcessor({ apiUrl: config.apiUrl, sandboxStore, stripe });
  const processor: PaymentProcessor = {
    get kind() {
      return current.kind;
    },
    ensureCustomer: (account) => current.ensureCustomer(account),
    createSetupLink: (input) => current.createSetupLink(input),
    getPaymentMethod: (customerId) => current.getPaymentMethod(customerId),
    createSubscription: (input) => current.createSubscription(input),
    findSubscriptionByIdempotencyKey: (customerId, key) => current.findSubscriptionByIdempotencyKey(customerId, key),
    cancelSubscription: (id) => current.cancelSubscription(id),
    payInvoice: (input) => current.payInvoice(input),
    ownsInvoice: (id) => current.ownsInvoice(id),
  };
  const webhookSecret = stripe?.webhookSecret;
  if (webhookSecret) webhookSecrets.set(processor, webhookSecret);
  if (config.apiPort === 0) {
    let learned = false;
    learners.set(processor, (origin) => {
      if (learned) return;
      learned = true;
      // The portal's card pages (resolvers/orders/card-return-url.ts) are on this origin too.
      learnServiceOrigin(processor, origin);
      if (current.kind === 'sandbox') current = createPaymentProcessor({ apiUrl: origin, sandboxStore, stripe });
    });
  }
  return { processor, sandboxStore };
}

/** Called by the account listener with each request's origin; acts once, and only for a port-0 start. */
export function useListenerOrigin(processor: PaymentProcessor, origin: string): void {
  learners.get(processor)?.(origin);
}

/** STRIPE_WEBHOOK_SECRET as read at start for this processor; null when unset or the sandbox serves. */
export function stripeWebhookSecretOf(processor: PaymentProcessor): string | null {
  return processor.kind === 'stripe' ? (webhookSecrets.get(processor) ?? null) : null;
}
