import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { ensureProcessorCustomer } from './processor-customer.js';

export interface CardSetupLink {
  readonly url: string;
  readonly expiresAt: string;
}

/** A return URL must be an absolute http(s) URL (SPEC 7: otherwise a 422). */
function returnUrl(value: string | null | undefined, field: 'success_url' | 'cancel_url'): string {
  if (value === undefined || value === null || value.trim() === '') {
    throw new DomainError(
      'missing_field',
      `Send "${field}": the http(s) page the person returns to ${field === 'success_url' ? 'after saving the card' : 'if they cancel'}.`,
    );
  }
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
  return url.toString();
}

/**
 * A page at the payment processor where a person saves a card (Stripe Checkout in setup mode, or the
 * sandbox card page). Card details never pass through the API.
 */
export async function createCardSetupLink(
  input: { readonly successUrl?: string | null; readonly cancelUrl?: string | null },
  ctx: Context,
): Promise<CardSetupLink> {
  const accountId = await requireAccountId(ctx);
  const successUrl = returnUrl(input.successUrl, 'success_url');
  const cancelUrl = returnUrl(input.cancelUrl, 'cancel_url');
  const customerId = await ensureProcessorCustomer(ctx, accountId);
  const link = await ctx.services.payments.createSetupLink({ customerId, successUrl, cancelUrl });
  return { url: link.url, expiresAt: link.expires_at };
}
