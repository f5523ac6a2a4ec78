import { findReferral, listReferralEarnings } from '../../db/referrals.js';
import type { ReferralEarningStatus } from '../../db/status-values.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { giveReferralCode } from '../referrals/referral-code.js';
import { REFERRAL_SHARE_PERCENT, REFERRAL_TERMS } from '../referrals/referral-terms.js';

export interface ReferralEarningView {
  readonly referredAccount: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: ReferralEarningStatus;
  readonly earnedAt: Date;
}

export interface Referrals {
  /** Never null since every account has a code; kept nullable in the schema so no client breaks. */
  readonly code: string | null;
  readonly link: string | null;
  /** The referral terms in a sentence, and the share of the first paid invoice they give. */
  readonly terms: string;
  readonly sharePercent: number;
  readonly payoutDestination: string | null;
  readonly currency: string;
  readonly earnedTotal: number;
  readonly pendingTotal: number;
  readonly paidTotal: number;
  readonly earnings: readonly ReferralEarningView[];
}

export async function getReferrals(ctx: Context): Promise<Referrals> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const [referral, earnings] = await Promise.all([findReferral(db, accountId), listReferralEarnings(db, accountId)]);
  // An account opened before every account got its code at opening gets it on this first read.
  const code = referral?.code ?? (await giveReferralCode(db, accountId));
  const sum = (status?: string) => earnings.filter((e) => !status || e.status === status).reduce((s, e) => s + e.amount, 0);
  return {
    code,
    // The portal's sign-up page, which carries the code to POST /auth/sign-up.
    link: `${ctx.services.config.apiUrl}/portal/sign-up?ref=${encodeURIComponent(code)}`,
    terms: REFERRAL_TERMS,
    sharePercent: REFERRAL_SHARE_PERCENT,
    payoutDestination: referral?.payout_destination ?? null,
    currency: earnings[0]?.currency ?? 'usd',
    earnedTotal: sum(),
    pendingTotal: sum('pending'),
    paidTotal: sum('paid'),
    earnings: earnings.map((e) => ({ referredAccount: e.referred_account, amount: e.amount, currency: e.currency, status: e.status, earnedAt: e.earned_at })),
  };
}
