import type { SandboxCardOutcome } from './sandbox-test-cards.js';

/**
 * Where the sandbox processor keeps its state: in the service's database, so it survives restarts
 * and is shared by every process (the lead implements this over Kysely; memory-sandbox-store.ts is
 * the reference implementation the tests use). Records are plain rows; dates are Date objects.
 */
export interface SandboxStore {
  saveSetupToken(token: SandboxSetupToken): Promise<void>;
  findSetupToken(token: string): Promise<SandboxSetupToken | null>;
  /**
   * In one step: when the token exists, is unused and `expires_at > now`, mark it used at `now` and
   * save `card` as the card of the token's customer (replacing any earlier one). Returns the token
   * row, or null when it could not be redeemed. Must be atomic so a token works once, even when
   * the form is posted twice at the same moment
   * (e.g. `UPDATE sandbox_setup_tokens SET used_at = $now WHERE token = $1 AND used_at IS NULL AND expires_at > $now RETURNING *`,
   * then the card upsert, in one transaction).
   */
  redeemSetupToken(token: string, card: SandboxCard, now: Date): Promise<SandboxSetupToken | null>;
  getCard(customerId: string): Promise<SandboxCard | null>;
  /**
   * Inserts the subscription (and with it, its charge) unless one with the same
   * (customer_id, idempotency_key) exists; a unique index on that pair makes concurrent calls safe.
   * Returns the stored row, `inserted: false` when an earlier one won.
   */
  recordSubscription(subscription: SandboxSubscription): Promise<{ readonly subscription: SandboxSubscription; readonly inserted: boolean }>;
  findSubscriptionByIdempotencyKey(customerId: string, idempotencyKey: string): Promise<SandboxSubscription | null>;
  setSubscriptionStatus(subscriptionId: string, status: string): Promise<void>;
}

export interface SandboxSetupToken {
  /** Random, URL-safe; the only secret in the setup link. */
  readonly token: string;
  readonly customer_id: string;
  readonly success_url: string;
  readonly cancel_url: string;
  readonly expires_at: Date;
  readonly used_at: Date | null;
}

/** A saved test card: never the full number, only what the payment-method answer shows. */
export interface SandboxCard {
  readonly customer_id: string;
  readonly payment_method_id: string;
  readonly brand: string;
  readonly last4: string;
  readonly exp_month: number;
  readonly exp_year: number;
  /** What charging it does (Stripe's test numbers): 4242... charges, 4000...0341 is declined. */
  readonly outcome: SandboxCardOutcome;
  readonly saved_at: Date;
}

export interface SandboxSubscription {
  readonly subscription_id: string;
  readonly customer_id: string;
  readonly idempotency_key: string;
  readonly price_ref: string;
  readonly quantity: number;
  /** active until cancelled. */
  readonly status: string;
  readonly invoice_id: string;
  /** What was charged for the first invoice, in minor units (0 when a code made it free). */
  readonly amount_paid: number;
  readonly currency: string;
  readonly payment_method_id: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly created_at: Date;
}
