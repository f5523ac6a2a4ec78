import Stripe from 'stripe';
import { DomainError } from '../../resolvers/domain-error.js';

/**
 * Checks the `Stripe-Signature` header of a webhook delivery against STRIPE_WEBHOOK_SECRET and
 * returns the event. The body must be the raw bytes as received: re-serialised JSON does not verify.
 * A missing or wrong signature, or one older than `toleranceSeconds` (Stripe's replay window), is a
 * 400 so Stripe shows the failure in its dashboard and retries.
 */
export function verifyStripeWebhook(
  rawBody: string | Buffer,
  signatureHeader: string | null | undefined,
  secret: string,
  toleranceSeconds: number = 300,
): Stripe.Event {
  if (!signatureHeader) {
    throw new DomainError('missing_webhook_signature', 'The Stripe-Signature header is missing; only Stripe can send events here.');
  }
  try {
    return Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, toleranceSeconds);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new DomainError(
        'invalid_webhook_signature',
        'The Stripe-Signature header does not match this body and the webhook secret (or it is too old); only Stripe can send events here.',
      );
    }
    // Signed by Stripe but not an event we can read (not JSON, or a thin event): still refused.
    throw new DomainError('invalid_webhook_body', 'The webhook body is not a Stripe snapshot event.');
  }
}
