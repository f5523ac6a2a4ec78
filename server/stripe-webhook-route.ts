import type { Services } from '../resolvers/context.js';
import { ApiError } from '../operations/api-error.js';
import { restAnswerOf } from '../rest/rest-error-words.js';
import { stripeWebhookSecretOf } from './create-payments.js';
import { verifyStripeWebhook } from '../clients/payments/verify-stripe-webhook.js';
import { applyStripeEvent } from '../resolvers/orders/apply-stripe-event.js';
import { errorResponse, jsonResponse } from '../operations/json-response.js';

export const STRIPE_WEBHOOK_PATH = '/webhooks/stripe';

/**
 * POST {api_url}/webhooks/stripe: Stripe's events, verified against STRIPE_WEBHOOK_SECRET on the raw
 * body, mirrored into the billing tables. Registered for its one path in the account listener's
 * route table (server/api-app.ts).
 */
export function createStripeWebhookRoute(services: Services) {
  const secret = stripeWebhookSecretOf(services.payments);
  return async function handleStripeWebhook(request: Request, requestId: string): Promise<Response> {
    try {
      if (request.method !== 'POST') throw new ApiError(405, 'method_not_allowed', 'Stripe posts events here; use POST.');
      if (services.payments.kind !== 'stripe' || !secret) {
        throw new ApiError(
          404,
          'webhooks_not_configured',
          'Stripe webhooks are not taken here: this service runs the sandbox processor, or STRIPE_WEBHOOK_SECRET is unset.',
        );
      }
      const raw = Buffer.from(await request.arrayBuffer());
      const event = verifyStripeWebhook(raw, request.headers.get('stripe-signature'), secret);
      return jsonResponse(200, await applyStripeEvent(services, event, new Date()), { 'X-Request-Id': requestId });
    } catch (error) {
      const answer = restAnswerOf(error);
      if (answer) return errorResponse(answer, requestId);
      throw error;
    }
  };
}
