import { builder } from './builder.js';
import { ANALYTICS_PERIODS, getAnalytics, type Analytics, type DomainDeliverability } from '../resolvers/account/get-analytics.js';

const DomainDeliverabilityRef = builder.objectRef<DomainDeliverability>('DomainDeliverability').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    watched: t.exposeBoolean('watched'),
    sent: t.exposeInt('sent', { nullable: true }),
    delivered: t.exposeInt('delivered', { nullable: true }),
    bounced: t.exposeInt('bounced', { nullable: true }),
    replied: t.exposeInt('replied', { nullable: true }),
    bounceRate: t.exposeFloat('bounceRate', { nullable: true }),
    replyRate: t.exposeFloat('replyRate', { nullable: true }),
    inboxRate: t.exposeFloat('inboxRate', { nullable: true }),
    spamRate: t.exposeFloat('spamRate', { nullable: true }),
  }),
});

const AnalyticsRef = builder.objectRef<Analytics>('Analytics').implement({
  fields: (t) => ({
    period: t.exposeString('period'),
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    domains: t.field({ type: [DomainDeliverabilityRef], resolve: (a) => a.domains }),
  }),
});

builder.queryField('analytics', (t) => t.field({
  type: AnalyticsRef,
  description: "Deliverability of the caller's domains over a period; a domain not yet watched carries null, never 0.",
  authScopes: { read: true },
  args: { period: t.arg.string({ required: false, description: `One of ${Object.keys(ANALYTICS_PERIODS).join(', ')}; default 7d.` }) },
  resolve: (_root, args, ctx) => getAnalytics(ctx, args.period),
}));
