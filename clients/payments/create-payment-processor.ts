import type { PaymentProcessor } from './payment-processor.js';
import { SandboxProcessor } from './sandbox-processor.js';
import type { SandboxStore } from './sandbox-store.js';
import { StripeProcessor } from './stripe-processor.js';
import type { StripeProcessorConfig } from '../../config/settings.js';

export interface PaymentProcessorSetup {
  /** `{api_url}`, for the sandbox card page link. */
  readonly apiUrl: string;
  /** The database-backed store; used only when the sandbox serves. */
  readonly sandboxStore: SandboxStore;
  /** settings.stripe: null without STRIPE_SECRET_KEY. */
  readonly stripe: StripeProcessorConfig | null;
}

/** Stripe when STRIPE_SECRET_KEY is set (settings.stripe), the embedded sandbox otherwise. */
export function createPaymentProcessor(setup: PaymentProcessorSetup): PaymentProcessor {
  if (setup.stripe) return new StripeProcessor(setup.stripe);
  return new SandboxProcessor({ apiUrl: setup.apiUrl, store: setup.sandboxStore });
}
