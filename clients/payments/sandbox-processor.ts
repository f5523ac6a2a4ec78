import { randomBytes } from 'node:crypto';
import { CardDeclinedError, IdempotencyKeyReusedError, NoPaymentMethodError } from './payment-errors.js';
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
import type { SandboxStore, SandboxSubscription } from './sandbox-store.js';

export interface SandboxProcessorOptions {
  /** `{api_url}`: the setup link is `{apiUrl}/sandbox/card?token=...`. */
  readonly apiUrl: string;
  readonly store: SandboxStore;
  readonly now?: () => Date;
  /** How long a setup link works; one hour unless a test says otherwise. */
  readonly setupLinkTtlMs?: number;
}

export const SANDBOX_CARD_PATH = '/sandbox/card';
const ONE_HOUR_MS = 60 * 60 * 1000;

/**
 * The embedded processor used when STRIPE_SECRET_KEY is unset. It behaves like Stripe's test mode:
 * a local card page saves a test card, 4242... charges, 4000...0341 is declined when charged, and
 * one idempotency key charges once. Its state lives in the service's database (SandboxStore).
 */
export class SandboxProcessor implements PaymentProcessor {
  readonly kind = 'sandbox' as const;
  private readonly apiUrl: string;
  private readonly store: SandboxStore;
  private readonly now: () => Date;
  private readonly ttlMs: number;

  constructor(options: SandboxProcessorOptions) {
    this.apiUrl = options.apiUrl.replace(/(?<!\/)\/+$/, '');
    this.store = options.store;
    this.now = options.now ?? (() => new Date());
    this.ttlMs = options.setupLinkTtlMs ?? ONE_HOUR_MS;
  }

  async ensureCustomer(account: AccountRef): Promise<{ readonly customerId: string }> {
    // One customer per account needs no state: the id is derived from the account. A stored id from
    // Stripe (cus_...) is not ours and is replaced.
    if (account.customerId?.startsWith('sbx_cus_')) return { customerId: account.customerId };
    return { customerId: `sbx_cus_${account.id}` };
  }

  async createSetupLink(input: SetupLinkInput): Promise<SetupLink> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.now().getTime() + this.ttlMs);
    await this.store.saveSetupToken({
      token,
      customer_id: input.customerId,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      expires_at: expiresAt,
      used_at: null,
    });
    return { url: `${this.apiUrl}${SANDBOX_CARD_PATH}?token=${token}`, expires_at: expiresAt.toISOString() };
  }

  async getPaymentMethod(customerId: string): Promise<PaymentMethodSummary | null> {
    const card = await this.store.getCard(customerId);
    return card ? { id: card.payment_method_id, brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year } : null;
  }

  async createSubscription(input: CreateSubscriptionInput): Promise<SubscriptionResult> {
    const earlier = await this.store.findSubscriptionByIdempotencyKey(input.customerId, input.idempotencyKey);
    if (earlier) return answerFor(earlier, input, true);

    const card = await this.store.getCard(input.customerId);
    if (!card) throw new NoPaymentMethodError();
    const amount = input.expected.firstInvoice;
    // As with Stripe, a free first invoice charges nothing, so the card is not tried.
    if (amount > 0 && card.outcome === 'decline') throw new CardDeclinedError('generic_decline', 'Your card was declined.');

    const created = this.now();
    const { subscription, inserted } = await this.store.recordSubscription({
      subscription_id: `sbx_sub_${randomId()}`,
      customer_id: input.customerId,
      idempotency_key: input.idempotencyKey,
      price_ref: input.priceRef,
      quantity: input.quantity,
      status: 'active',
      invoice_id: `sbx_in_${randomId()}`,
      amount_paid: amount,
      currency: input.expected.currency.toLowerCase(),
      payment_method_id: card.payment_method_id,
      metadata: { ...input.metadata, account_id: String(input.accountId), [IDEMPOTENCY_METADATA_KEY]: input.idempotencyKey },
      created_at: created,
    });
    // Not inserted: a simultaneous request with the same key charged first; this one replays it.
    return answerFor(subscription, input, !inserted);
  }

  async findSubscriptionByIdempotencyKey(customerId: string, idempotencyKey: string): Promise<SubscriptionResult | null> {
    const found = await this.store.findSubscriptionByIdempotencyKey(customerId, idempotencyKey);
    return found ? toResult(found, true) : null;
  }

  async cancelSubscription(subscriptionId: string): Promise<void> {
    await this.store.setSubscriptionStatus(subscriptionId, 'canceled');
  }

  /** Charges the saved test card as Stripe's test mode would: 4242... pays, 4000...0341 is declined. */
  async payInvoice(input: PayInvoiceInput): Promise<PaidInvoice> {
    const card = await this.store.getCard(input.customerId);
    if (!card) throw new NoPaymentMethodError();
    if (input.amount > 0 && card.outcome === 'decline') throw new CardDeclinedError('generic_decline', 'Your card was declined.');
    return { amountPaid: input.amount, paidAt: this.now().toISOString(), hostedInvoiceUrl: null };
  }

  ownsInvoice(processorInvoiceId: string | null): boolean {
    return processorInvoiceId === null || processorInvoiceId.startsWith('sbx_in_');
  }
}

function answerFor(subscription: SandboxSubscription, input: CreateSubscriptionInput, replayed: boolean): SubscriptionResult {
  if (replayed) {
    const same =
      subscription.price_ref === input.priceRef && subscription.quantity === input.quantity && subscription.amount_paid === input.expected.firstInvoice;
    if (!same) throw new IdempotencyKeyReusedError();
  }
  return toResult(subscription, replayed);
}

function toResult(subscription: SandboxSubscription, replayed: boolean): SubscriptionResult {
  const paidAt = subscription.created_at.toISOString();
  return {
    subscriptionId: subscription.subscription_id,
    status: subscription.status,
    quantity: subscription.quantity,
    priceRef: subscription.price_ref,
    latestInvoice: { id: subscription.invoice_id, amountPaid: subscription.amount_paid, currency: subscription.currency, status: 'paid' },
    // The same shape Stripe's webhooks give, so the billing page stores sandbox invoices the same way.
    invoice: {
      processor_id: subscription.invoice_id,
      customer_id: subscription.customer_id,
      subscription_id: subscription.subscription_id,
      number: null,
      amount_due: subscription.amount_paid,
      amount_paid: subscription.amount_paid,
      currency: subscription.currency,
      status: 'paid',
      created: paidAt,
      due_date: null,
      paid_at: paidAt,
      payment_failed: false,
    },
    replayed,
  };
}

function randomId(): string {
  return randomBytes(12).toString('base64url');
}
