import type { InvoiceStatus } from '../../db/status-values.js';

/**
 * What the order flow needs from a payment processor, whichever one is configured (Stripe when
 * STRIPE_SECRET_KEY is set, the embedded sandbox otherwise). Amounts are integer minor units.
 *
 * Refusals are thrown as the DomainError subclasses in payment-errors.ts, so the order flow can let them
 * through unchanged: CardDeclinedError (402), NoPaymentMethodError (409), ProcessorUnavailableError
 * (502), PaymentInProgressError (409), IdempotencyKeyReusedError (409).
 */
export interface PaymentProcessor {
  /** 'stripe' or 'sandbox': stored with the customer id so a switch of processor is noticed. */
  readonly kind: 'stripe' | 'sandbox';

  /**
   * The processor's customer for this account. Pass the id stored on the account (if any): it is
   * reused when it still exists, otherwise a customer is created. Store the answer on the account.
   */
  ensureCustomer(account: AccountRef): Promise<{ readonly customerId: string }>;

  /** A page where a person saves a card; card details never pass through our API. */
  createSetupLink(input: SetupLinkInput): Promise<SetupLink>;

  /** The card charges will use, or null when none is on file. */
  getPaymentMethod(customerId: string): Promise<PaymentMethodSummary | null>;

  /**
   * Starts the subscription and charges its first invoice at once, or throws and charges nothing.
   * Calling it again with the same `idempotencyKey` (and the same parameters) returns the first
   * result with `replayed: true` and charges nothing more.
   */
  createSubscription(input: CreateSubscriptionInput): Promise<SubscriptionResult>;

  /**
   * The subscription an earlier createSubscription with this key made, or null. This is how a retry
   * after a crash between "the processor charged" and "we recorded the order" finds the charge.
   */
  findSubscriptionByIdempotencyKey(customerId: string, idempotencyKey: string): Promise<SubscriptionResult | null>;

  /**
   * Ends a subscription at once (compensation when the order cannot be recorded at all). It does not
   * refund the first invoice: prefer recording the order on retry over cancelling it.
   */
  cancelSubscription(subscriptionId: string): Promise<void>;

  /**
   * Pays one open invoice with the card on file at once (Stripe's `invoices.pay`): answers what was
   * paid, or throws CardDeclinedError, NoPaymentMethodError or ProcessorUnavailableError. An invoice
   * the processor already holds as paid answers paid, charging nothing more.
   */
  payInvoice(input: PayInvoiceInput): Promise<PaidInvoice>;

  /** Whether this processor holds the invoice (its id is one of this processor's, or the sandbox's unnumbered ones). */
  ownsInvoice(processorInvoiceId: string | null): boolean;
}

export interface PayInvoiceInput {
  readonly customerId: string;
  /** `invoices.processor_invoice_id`; null for an invoice the sandbox never numbered. */
  readonly invoiceRef: string | null;
  /** What is still owed, minor units, and its currency (the sandbox charges exactly this). */
  readonly amount: number;
  readonly currency: string;
  /** Derived from the invoice and its attempt, so a retried call charges once. */
  readonly idempotencyKey: string;
}

export interface PaidInvoice {
  readonly amountPaid: number;
  /** ISO 8601. */
  readonly paidAt: string;
  readonly hostedInvoiceUrl: string | null;
}

export interface AccountRef {
  readonly id: number | string;
  readonly name: string;
  /** `accounts.processor_customer_id`, when one was stored before. */
  readonly customerId?: string | null;
}

export interface SetupLinkInput {
  readonly customerId: string;
  readonly successUrl: string;
  readonly cancelUrl: string;
}

export interface SetupLink {
  readonly url: string;
  /** ISO 8601. */
  readonly expires_at: string;
}

export interface PaymentMethodSummary {
  /** The processor's id of the card (pm_... with Stripe). */
  readonly id: string;
  /** Lower-case network name as Stripe spells it: visa, mastercard, amex, discover, ... */
  readonly brand: string;
  readonly last4: string;
  readonly exp_month: number;
  readonly exp_year: number;
}

export interface CreateSubscriptionInput {
  readonly accountId: number | string;
  readonly customerId: string;
  /** The plan's processor price (`plans.processor_price_id`); the sandbox only records it. */
  readonly priceRef: string;
  readonly quantity: number;
  /**
   * What the service computed and showed on the preview. The sandbox charges exactly this; Stripe
   * computes its own invoice from the Price and discount, and the result says what it really charged.
   */
  readonly expected: { readonly unitAmount: number; readonly currency: string; readonly firstInvoice: number };
  /** A processor promotion code: Stripe's `promo_...` id, or the customer-facing code to look up. */
  readonly promotionCode?: string | null;
  /** A processor coupon id, for discounts that have no promotion code. */
  readonly couponRef?: string | null;
  /** The caller's Idempotency-Key header, as sent. */
  readonly idempotencyKey: string;
  /** Copied onto the processor's subscription (strings only, as Stripe metadata). */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** An invoice as the billing page stores it; the same shape from createSubscription and from webhooks. */
export interface MirroredInvoice {
  readonly processor_id: string;
  readonly customer_id: string | null;
  readonly subscription_id: string | null;
  readonly number: string | null;
  readonly amount_due: number;
  readonly amount_paid: number;
  readonly currency: string;
  /** Stripe's invoice status: draft, open, paid, uncollectible, void. */
  readonly status: InvoiceStatus;
  /** ISO 8601, or null. */
  readonly created: string | null;
  readonly due_date: string | null;
  readonly paid_at: string | null;
  /** A payment was tried and failed, and the invoice is still open: what "past due" shows. */
  readonly payment_failed: boolean;
  /** The processor's page for the invoice (Stripe's hosted_invoice_url); absent or null without one. */
  readonly hosted_invoice_url?: string | null;
}

export interface SubscriptionResult {
  readonly subscriptionId: string;
  /** Stripe's subscription status: active, past_due, canceled, ... */
  readonly status: string;
  readonly quantity: number;
  /** The processor price the subscription is on. */
  readonly priceRef: string | null;
  readonly latestInvoice: {
    readonly id: string;
    readonly amountPaid: number;
    readonly currency: string;
    readonly status: string;
  } | null;
  /** The latest invoice in the shape the billing page stores. */
  readonly invoice: MirroredInvoice | null;
  /** True when this is an earlier result returned again for the same idempotency key. */
  readonly replayed: boolean;
}

/** The metadata key under which our Idempotency-Key is stored on the processor's subscription. */
export const IDEMPOTENCY_METADATA_KEY = 'order_idempotency_key';
