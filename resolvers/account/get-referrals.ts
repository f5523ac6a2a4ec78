import type { ReferralEarningStatus } from '../../db/status-values.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';

export interface ReferralEarningView {
  readonly referredAccount: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: ReferralEarningStatus;
  readonly earnedAt: Date;
}

export interface Referrals {
  readonly code: string | null;
  readonly link: string | null;
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
  const [referral, earnings] = await Promise.all([
    db.selectFrom('referrals').select(['code', 'payout_destination']).where('account_id', '=', accountId).executeTakeFirst(),
    db
      .selectFrom('referral_earnings')
      .select(['referred_account', 'amount', 'currency', 'status', 'earned_at'])
      .where('account_id', '=', accountId)
      .orderBy('earned_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  ]);
  const sum = (status?: string) => earnings.filter((e) => !status || e.status === status).reduce((s, e) => s + e.amount, 0);
  return {
    code: referral?.code ?? null,
    link: referral ? `${ctx.services.config.publicUrl}/?ref=${encodeURIComponent(referral.code)}` : null,
    payoutDestination: referral?.payout_destination ?? null,
    currency: earnings[0]?.currency ?? 'usd',
    earnedTotal: sum(),
    pendingTotal: sum('pending'),
    paidTotal: sum('paid'),
    earnings: earnings.map((e) => ({ referredAccount: e.referred_account, amount: e.amount, currency: e.currency, status: e.status, earnedAt: e.earned_at })),
  };
}
