import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { ensureProcessorCustomer } from './processor-customer.js';
import { isReachableReturnUrl, portalCardReturnUrls } from './card-return-url.js';
import { serviceOrigin } from '../../clients/payments/service-origin.js';

export interface CardSetupLink {
  readonly url: string;
  readonly expiresAt: string;
}

/** A return URL, when given, must be an absolute http(s) URL (SPEC 7: otherwise a 422); null when not given. */
function returnUrl(value: string | null | undefined, field: 'success_url' | 'cancel_url'): URL | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new DomainError(
      'invalid_return_url',
      `"${field}" must be an absolute http or https URL, such as https://example.com/card-saved; "${value.slice(0, 100)}" is not.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DomainError('invalid_return_url', `"${field}" must be an http or https URL; ${url.protocol.replace(/:$/, '')} links are not accepted.`);
  }
  if (value.length > 2048) throw new DomainError('invalid_return_url', `"${field}" is longer than 2,048 characters.`);
  return url;
}

/**
 * A page at the payment processor where a person saves a card (Stripe Checkout in setup mode, or the
 * sandbox card page). Card details never pass through the API. Afterwards the processor sends the
 * person to the caller's success_url / cancel_url when given and reachable (card-return-url.ts), and
 * otherwise to the portal's page saying what happened.
 */
export async function createCardSetupLink(
  input: { readonly successUrl?: string | null; readonly cancelUrl?: string | null },
  ctx: Context,
): Promise<CardSetupLink> {
  const accountId = await requireAccountId(ctx);
  const apiUrl = serviceOrigin(ctx.services.payments, ctx.services.config.apiUrl);
  const portal = portalCardReturnUrls(apiUrl);
  const followed = (url: URL | null, otherwise: string) => (url && isReachableReturnUrl(url, apiUrl) ? url.toString() : otherwise);
  const successUrl = followed(returnUrl(input.successUrl, 'success_url'), portal.saved);
  const cancelUrl = followed(returnUrl(input.cancelUrl, 'cancel_url'), portal.cancelled);
  const customerId = await ensureProcessorCustomer(ctx, accountId);
  const link = await ctx.services.payments.createSetupLink({ customerId, successUrl, cancelUrl });
  return { url: link.url, expiresAt: link.expires_at };
}
