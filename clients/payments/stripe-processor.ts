import type { StripeProcessorConfig } from '../../config/settings.js';
import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import {
  CardDeclinedError,
  IdempotencyKeyReusedError,
  NoPaymentMethodError,
  PaymentInProgressError,
  ProcessorUnavailableError,
  PromotionCodeRefusedError,
} from './payment-errors.js';
import { mirrorInvoice } from './mirror-stripe-event.js';
import {
  IDEMPOTENCY_METADATA_KEY,
  type AccountRef,
  type CreateSubscriptionInput,
  type PaidInvoice,
  type PayInvoiceInput,
  type PaymentMethodSummary,
  type PaymentProcessor,
  type SetupLink,
  type SetupLinkInput,
  type SubscriptionResult,
} from './payment-processor.js';

/** The SDK client for this configuration: one per process is fine, it holds no request state. */
export function createStripeClient(config: StripeProcessorConfig): Stripe {
  const options: ConstructorParameters<typeof Stripe>[1] = {
    maxNetworkRetries: config.maxNetworkRetries,
    timeout: config.timeoutMs,
    telemetry: false,
  };
  if (config.apiBase) {
    const url = new URL(config.apiBase);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    Object.assign(options, { host: url.hostname, port: url.port || (protocol === 'http' ? '80' : '443'), protocol });
  }
  return new Stripe(config.secretKey, options);
}

/**
 * The Stripe idempotency key for one order attempt: our account, the caller's Idempotency-Key and
 * the card being charged, hashed (Stripe keys are at most 255 characters and should not leak ours).
 * The same attempt replays Stripe's stored answer, so a retry never charges twice; a new card after
 * a decline is a new attempt (Stripe replays stored declines for 24 hours).
 */
export function stripeIdempotencyKey(accountId: number | string, idempotencyKey: string, paymentMethodId: string): string {
  const digest = createHash('sha256').update(`order\u0000${accountId}\u0000${idempotencyKey}\u0000${paymentMethodId}`).digest('hex');
  return `order-${digest}`;
}

/** The processor used when STRIPE_SECRET_KEY is set: the official SDK against Stripe (or STRIPE_API_BASE). */
export class StripeProcessor implements PaymentProcessor {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    private readonly config: StripeProcessorConfig,
    stripe?: Stripe,
  ) {
    this.stripe = stripe ?? createStripeClient(config);
  }

  async ensureCustomer(account: AccountRef): Promise<{ readonly customerId: string }> {
    return guard(async () => {
      if (account.customerId) {
        const existing = await this.retrieveCustomer(account.customerId);
        if (existing) {
          if (existing.name !== account.name) await this.stripe.customers.update(existing.id, { name: account.name });
          return { customerId: existing.id };
        }
      }
      // Keyed on the account (and the id it replaces) so two first requests at once make one customer.
      const key = `customer-${sha256(`${account.id}\u0000${account.customerId ?? ''}`)}`;
      const customer = await this.stripe.customers.create({ name: account.name, metadata: { account_id: String(account.id) } }, { idempotencyKey: key });
      return { customerId: customer.id };
    });
  }

  async createSetupLink(input: SetupLinkInput): Promise<SetupLink> {
    return guard(async () => {
      const session = await this.stripe.checkout.sessions.create({
        mode: 'setup',
        customer: input.customerId,
        currency: this.config.setupCurrency,
        allowed_payment_method_types: ['card'],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      });
      if (!session.url) throw new Error('Stripe returned a setup session without a url');
      return { url: session.url, expires_at: new Date(session.expires_at * 1000).toISOString() };
    });
  }

  async getPaymentMethod(customerId: string): Promise<PaymentMethodSummary | null> {
    return guard(() => this.findCard(customerId));
  }

  async createSubscription(input: CreateSubscriptionInput): Promise<SubscriptionResult> {
    // Before anything else: a subscription already made with this key (perhaps before a crash, or
    // with a card since replaced) is the answer, and nothing is charged again.
    const earlier = await guard(() => this.findSubscriptionByIdempotencyKey(input.customerId, input.idempotencyKey));
    if (earlier) {
      if (!sameOrder(earlier, input)) throw new IdempotencyKeyReusedError();
      return { ...earlier, replayed: true };
    }

    const card = await guard(() => this.findCard(input.customerId));
    if (!card) throw new NoPaymentMethodError();
    const discounts = await this.discountsFor(input);

    const params: Stripe.SubscriptionCreateParams = {
      customer: input.customerId,
      items: [{ price: input.priceRef, quantity: input.quantity }],
      default_payment_method: card.id,
      // The first invoice is paid now or the call fails with nothing created (no incomplete
      // subscription left behind), which is what lets a 402 promise "nothing charged".
      payment_behavior: 'error_if_incomplete',
      off_session: true,
      metadata: { ...input.metadata, account_id: String(input.accountId), [IDEMPOTENCY_METADATA_KEY]: input.idempotencyKey },
      expand: ['latest_invoice', 'items.data.price'],
    };
    if (discounts) params.discounts = discounts;

    try {
      const subscription = await this.stripe.subscriptions.create(params, {
        idempotencyKey: stripeIdempotencyKey(input.accountId, input.idempotencyKey, card.id),
      });
      const replayed = headerValue(subscription.lastResponse?.headers, 'idempotent-replayed') === 'true';
      return toResult(subscription, replayed);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) {
        throw new CardDeclinedError(error.decline_code ?? error.code ?? null, error.message);
      }
      if (error instanceof Stripe.errors.StripeIdempotencyError) {
        // 409: the same key is still being processed by Stripe; 400: same key, other parameters.
        throw error.statusCode === 409 ? new PaymentInProgressError() : new IdempotencyKeyReusedError();
      }
      if (error instanceof Stripe.errors.StripeInvalidRequestError && discounts && isDiscountError(error)) {
        throw new PromotionCodeRefusedError(input.promotionCode ?? input.couponRef ?? '');
      }
      if (outcomeUnknown(error)) return this.settleUnknownOutcome(input, error);
      throw mapStripeError(error);
    }
  }

  async findSubscriptionByIdempotencyKey(customerId: string, idempotencyKey: string): Promise<SubscriptionResult | null> {
    // A list by customer, not the Search API: search is eventually consistent and could miss a
    // subscription made a second before the crash.
    const list = this.stripe.subscriptions.list({
      customer: customerId,
      status: 'all',
      limit: 100,
      expand: ['data.latest_invoice', 'data.items.data.price'],
    });
    let found: Stripe.Subscription | null = null;
    for await (const subscription of list) {
      if (subscription.metadata?.[IDEMPOTENCY_METADATA_KEY] !== idempotencyKey) continue;
      // error_if_incomplete never leaves these, but one made another way has charged nothing.
      if (subscription.status === 'incomplete' || subscription.status === 'incomplete_expired') continue;
      if (!found || (found.status === 'canceled' && subscription.status !== 'canceled')) found = subscription;
    }
    return found ? toResult(found, true) : null;
  }

  async cancelSubscription(subscriptionId: string): Promise<void> {
    await guard(async () => {
      try {
        await this.stripe.subscriptions.cancel(subscriptionId);
      } catch (error) {
        // Already gone is what we wanted.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return;
        throw error;
      }
    });
  }

  /** Stripe's `invoices.pay` with the card on file; "already paid" reads back the paid invoice. */
  async payInvoice(input: PayInvoiceInput): Promise<PaidInvoice> {
    if (!input.invoiceRef) throw new Error('A Stripe invoice needs its id to be paid');
    const invoiceRef = input.invoiceRef;
    const card = await guard(() => this.findCard(input.customerId));
    if (!card) throw new NoPaymentMethodError();
    try {
      const paid = await this.stripe.invoices.pay(
        invoiceRef,
        { payment_method: card.id, off_session: true },
        // The card is part of the key: Stripe replays a declined attempt's 402 for a key it has seen.
        { idempotencyKey: `${input.idempotencyKey}-${card.id}` },
      );
      return paidFrom(paid);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) throw new CardDeclinedError(error.decline_code ?? error.code ?? null, error.message);
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        const current = await guard(() => this.stripe.invoices.retrieve(invoiceRef));
        if (current.status === 'paid') return paidFrom(current);
      }
      throw mapStripeError(error);
    }
  }

  ownsInvoice(processorInvoiceId: string | null): boolean {
    return processorInvoiceId?.startsWith('in_') ?? false;
  }

  /**
   * The create call failed without an answer (timeout, connection cut, Stripe 5xx): Stripe may or
   * may not have charged. Ask Stripe before answering, so a 502 means "nothing charged".
   */
  private async settleUnknownOutcome(input: CreateSubscriptionInput, cause: unknown): Promise<SubscriptionResult> {
    let found: SubscriptionResult | null;
    try {
      found = await this.findSubscriptionByIdempotencyKey(input.customerId, input.idempotencyKey);
    } catch {
      throw new ProcessorUnavailableError(false, describe(cause));
    }
    if (found) {
      if (found.status === 'active' || found.status === 'trialing' || found.status === 'past_due') return { ...found, replayed: false };
      await this.cancelSubscription(found.subscriptionId).catch(() => undefined);
    }
    throw new ProcessorUnavailableError(true, describe(cause));
  }

  private async retrieveCustomer(customerId: string): Promise<Stripe.Customer | null> {
    try {
      const customer = await this.stripe.customers.retrieve(customerId);
      return 'deleted' in customer && customer.deleted ? null : (customer as Stripe.Customer);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return null;
      throw error;
    }
  }

  /** The customer's default card if set, else the most recently saved one (what Checkout left). */
  private async findCard(customerId: string): Promise<PaymentMethodSummary | null> {
    const customer = await this.retrieveCustomer(customerId);
    if (!customer) return null;
    const preferred = customer.invoice_settings?.default_payment_method;
    const preferredId = typeof preferred === 'string' ? preferred : (preferred?.id ?? null);
    const cards = await this.stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 100 });
    const card = cards.data.find((pm) => pm.id === preferredId) ?? cards.data[0];
    if (!card?.card) return null;
    return { id: card.id, brand: card.card.brand, last4: card.card.last4, exp_month: card.card.exp_month, exp_year: card.card.exp_year };
  }

  private async discountsFor(input: CreateSubscriptionInput): Promise<Stripe.SubscriptionCreateParams.Discount[] | null> {
    if (input.promotionCode) {
      const code = input.promotionCode;
      if (code.startsWith('promo_')) return [{ promotion_code: code }];
      const found = await guard(() => this.stripe.promotionCodes.list({ code, active: true, limit: 1 }));
      const promotion = found.data[0];
      if (!promotion) throw new PromotionCodeRefusedError(code);
      return [{ promotion_code: promotion.id }];
    }
    if (input.couponRef) return [{ coupon: input.couponRef }];
    return null;
  }
}

function paidFrom(invoice: Stripe.Invoice): PaidInvoice {
  const paidAt = invoice.status_transitions?.paid_at;
  return {
    amountPaid: invoice.amount_paid,
    paidAt: new Date(paidAt ? paidAt * 1000 : Date.now()).toISOString(),
    hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
  };
}

function toResult(subscription: Stripe.Subscription, replayed: boolean): SubscriptionResult {
  const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
  return {
    subscriptionId: subscription.id,
    status: subscription.status,
    quantity: subscription.items?.data?.[0]?.quantity ?? 0,
    latestInvoice: invoice ? { id: invoice.id, amountPaid: invoice.amount_paid, currency: invoice.currency, status: invoice.status ?? 'draft' } : null,
    invoice: invoice ? mirrorInvoice(invoice) : null,
    replayed,
    priceRef: subscription.items?.data?.[0]?.price?.id ?? null,
  };
}

/** An earlier subscription answers this request only if it is the same order. */
function sameOrder(earlier: SubscriptionResult, input: CreateSubscriptionInput): boolean {
  return earlier.quantity === input.quantity && (earlier.priceRef === null || earlier.priceRef === input.priceRef);
}

function isDiscountError(error: InstanceType<typeof Stripe.errors.StripeInvalidRequestError>): boolean {
  return (error.param ?? '').startsWith('discounts') || /promotion|coupon/i.test(error.message);
}

/** Errors after which Stripe may have done the work: no answer, or a server error mid-way. */
function outcomeUnknown(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError;
}

/** Runs calls that charge nothing: any failure to reach Stripe is simply "unavailable, nothing charged". */
async function guard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw mapStripeError(error);
  }
}

function mapStripeError(error: unknown): unknown {
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    return new ProcessorUnavailableError(true, describe(error));
  }
  return error; // our own DomainErrors pass through; configuration errors become a masked 500
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function headerValue(headers: Readonly<Record<string, string | readonly string[] | undefined>> | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return value === undefined || typeof value === 'string' ? value : value[0];
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
