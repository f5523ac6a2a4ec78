import type { Kysely, Transaction } from 'kysely';
import { findFirstPaidInvoice, findReferrerOf, hasReferralEarningFor, insertReferralEarningOnce } from '../../db/referrals.js';
import type { Database } from '../../db/schema.js';
import { REFERRAL_SHARE_PERCENT } from './referral-terms.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Credits the account's referrer for its first paid invoice (docs/ordering.md, "Referrals"), once:
 * called wherever an invoice of ours becomes paid (an order charged at placing, a card saved or "pay
 * now" paying an open invoice, the processor's webhook). A referred account that has paid nothing yet,
 * an account no one referred, or one already credited: nothing happens. The unique index on the
 * referred account settles two payments landing at once.
 */
export async function creditReferrer(db: Db, accountId: number, now: Date = new Date()): Promise<void> {
  const referred = await findReferrerOf(db, accountId);
  if (!referred?.referred_by_account_id) return;
  if (await hasReferralEarningFor(db, accountId)) return;
  const invoice = await findFirstPaidInvoice(db, accountId);
  if (!invoice) return;
  await insertReferralEarningOnce(db, {
    account_id: referred.referred_by_account_id,
    referred_account: referred.name,
    referred_account_id: accountId,
    invoice_id: invoice.id,
    amount: Math.round((invoice.amount_paid * REFERRAL_SHARE_PERCENT) / 100),
    currency: invoice.currency,
    status: 'pending',
    earned_at: invoice.paid_at ?? now,
  });
}
