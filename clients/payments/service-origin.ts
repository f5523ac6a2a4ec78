import type { PaymentProcessor } from './payment-processor.js';

/**
 * The origin people reach this service at, for links the payment processor sends them to (the
 * portal's card pages): the configured {api_url}, except when the service was started on port 0
 * (the tests), whose configured URL has no real port, so the account listener's origin is learned
 * from its first request (server/create-payments.ts). Keyed by the process's processor, which every
 * resolver holds as ctx.services.payments.
 */
const learned = new WeakMap<PaymentProcessor, string>();

export function learnServiceOrigin(processor: PaymentProcessor, origin: string): void {
  learned.set(processor, origin);
}

export function serviceOrigin(processor: PaymentProcessor, configuredApiUrl: string): string {
  return learned.get(processor) ?? configuredApiUrl;
}
