import { builder } from './builder.js';
import { ReferralEarningStatusEnum } from './status-enums.js';
import { getReferrals, type ReferralEarningView, type Referrals } from '../resolvers/account/get-referrals.js';

const EarningRef = builder.objectRef<ReferralEarningView>('ReferralEarning').implement({
  fields: (t) => ({
    referredAccount: t.exposeString('referredAccount'),
    amount: t.exposeInt('amount'),
    currency: t.exposeString('currency'),
    status: t.field({ type: ReferralEarningStatusEnum, resolve: (r) => r.status }),
    earnedAt: t.expose('earnedAt', { type: 'DateTime' }),
  }),
});

const ReferralsRef = builder.objectRef<Referrals>('Referrals').implement({
  fields: (t) => ({
    code: t.exposeString('code', { nullable: true }),
    link: t.exposeString('link', { nullable: true, description: 'The referral link: the portal sign-up page carrying the code.' }),
    terms: t.exposeString('terms', { description: 'The referral terms, in a sentence for people.' }),
    sharePercent: t.exposeInt('sharePercent', { description: "Percent of the referred account's first paid invoice the referrer earns." }),
    payoutDestination: t.exposeString('payoutDestination', { nullable: true }),
    currency: t.exposeString('currency'),
    earnedTotal: t.exposeInt('earnedTotal'),
    pendingTotal: t.exposeInt('pendingTotal'),
    paidTotal: t.exposeInt('paidTotal'),
    earnings: t.field({ type: [EarningRef], resolve: (r) => r.earnings }),
  }),
});

builder.queryField('referrals', (t) =>
  t.field({
    type: ReferralsRef,
    description: 'Referral code, earnings, payout destination.',
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => getReferrals(ctx),
  }),
);
