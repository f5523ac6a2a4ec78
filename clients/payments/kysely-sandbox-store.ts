import { findAccountByCustomer } from '../../db/accounts.js';
import { upsertPaymentMethod } from '../../db/payment-methods.js';
import {
  findSandboxCard,
  findSandboxSetupToken,
  findSandboxSubscription,
  insertSandboxSetupToken,
  insertSandboxSubscriptionOnce,
  setSandboxSubscriptionStatus,
  upsertSandboxCard,
  useSandboxSetupToken,
} from '../../db/sandbox.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SandboxCard, SandboxSetupToken, SandboxStore, SandboxSubscription } from './sandbox-store.js';
import { isSandboxCardOutcome } from './sandbox-test-cards.js';
import { z } from 'zod';

/** A sandbox subscription's metadata as this store writes it: names to strings, as Stripe's. */
const Metadata = z.record(z.string(), z.string());

/**
 * The sandbox processor's state in the service's database, so a saved card and a charge survive a
 * restart and are seen by every instance. Token redemption is one conditional UPDATE (a token works
 * once even when the form is posted twice at once); a charge is an insert guarded by the unique
 * (customer_id, idempotency_key) pair, so racing requests with one key charge once.
 *
 * A saved card is also written to `payment_methods` for the account whose processor customer it is,
 * which is what GET /v1/payment-method reads.
 */
export function createKyselySandboxStore(db: Kysely<Database>): SandboxStore {
  return {
    async saveSetupToken(token) {
      await insertSandboxSetupToken(db, { ...token });
    },

    async findSetupToken(token) {
      const row = await findSandboxSetupToken(db, token);
      return row ? toToken(row) : null;
    },

    async redeemSetupToken(token, card, now) {
      return db.transaction().execute(async (trx) => {
        const used = await useSandboxSetupToken(trx, token, now);
        if (!used) return null;
        const row = { ...card, customer_id: used.customer_id };
        await upsertSandboxCard(trx, row);
        const account = await findAccountByCustomer(trx, used.customer_id);
        if (account) {
          const shown = { brand: row.brand, last4: row.last4, exp_month: row.exp_month, exp_year: row.exp_year, processor_ref: row.payment_method_id };
          await upsertPaymentMethod(trx, account.id, shown);
        }
        return toToken(used);
      });
    },

    async getCard(customerId) {
      const row = await findSandboxCard(db, customerId);
      return row ? toCard(row) : null;
    },

    async recordSubscription(subscription) {
      const inserted = await insertSandboxSubscriptionOnce(db, { ...subscription, metadata: JSON.stringify(subscription.metadata) });
      if (inserted) return { subscription: toSubscription(inserted), inserted: true };
      const earlier = await this.findSubscriptionByIdempotencyKey(subscription.customer_id, subscription.idempotency_key);
      if (!earlier) throw new Error('A sandbox subscription conflicted on its key but cannot be found.');
      return { subscription: earlier, inserted: false };
    },

    async findSubscriptionByIdempotencyKey(customerId, idempotencyKey) {
      const row = await findSandboxSubscription(db, customerId, idempotencyKey);
      return row ? toSubscription(row) : null;
    },

    async setSubscriptionStatus(subscriptionId, status) {
      await setSandboxSubscriptionStatus(db, subscriptionId, status);
    },
  };
}

function toToken(row: {
  token: string;
  customer_id: string;
  success_url: string;
  cancel_url: string;
  expires_at: Date;
  used_at: Date | null;
}): SandboxSetupToken {
  return { ...row, expires_at: new Date(row.expires_at), used_at: row.used_at === null ? null : new Date(row.used_at) };
}

function toCard(row: Omit<SandboxCard, 'outcome'> & { outcome: string }): SandboxCard {
  const { outcome } = row;
  // Written by this store from SANDBOX_TEST_CARDS only.
  if (!isSandboxCardOutcome(outcome)) throw new Error(`A sandbox card has the outcome "${outcome}", which is neither charge nor decline.`);
  return { ...row, outcome, saved_at: new Date(row.saved_at) };
}

function toSubscription(row: Omit<SandboxSubscription, 'metadata'> & { metadata: string }): SandboxSubscription {
  return { ...row, metadata: Metadata.parse(JSON.parse(row.metadata)), created_at: new Date(row.created_at) };
}
