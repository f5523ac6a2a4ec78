import type { PaymentProcessor } from './payment-processor.js';
import { SandboxProcessor } from './sandbox-processor.js';
import type { SandboxStore } from './sandbox-store.js';
import { StripeProcessor, stripeConfigFromEnv } from './stripe-processor.js';

export interface PaymentProcessorSetup {
  /** `{api_url}`, for the sandbox card page link. */
  readonly apiUrl: string;
  /** The database-backed store; used only when the sandbox serves. */
  readonly sandboxStore: SandboxStore;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Stripe when STRIPE_SECRET_KEY is set, the embedded sandbox otherwise. Call once at start-up: a
 * malformed STRIPE_* variable throws here, not on the first order.
 */
export function createPaymentProcessor(setup: PaymentProcessorSetup): PaymentProcessor {
  const stripe = stripeConfigFromEnv(setup.env ?? process.env);
  if (stripe) return new StripeProcessor(stripe);
  return new SandboxProcessor({ apiUrl: setup.apiUrl, store: setup.sandboxStore });
}
