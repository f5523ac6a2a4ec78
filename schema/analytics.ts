import { builder } from './builder.js';
import { ANALYTICS_PERIODS, getAnalytics, type Analytics, type DomainDeliverability } from '../resolvers/account/get-analytics.js';
import type { DoorEnum } from './door-enum-extension.js';

/**
 * A GraphQL name cannot start with a digit, so each period is named as an ISO 8601 duration (7d is
 * P7D); the resolvers see "7d", and REST, MCP and OpenAPI keep writing "7d" (extensions.door).
 */
const periodName = (period: string) => `P${period.toUpperCase()}`;

export const AnalyticsPeriodEnum = builder.enumType('AnalyticsPeriod', {
  description: `Length of a period ending today: ${Object.keys(ANALYTICS_PERIODS).map(periodName).join(', ')} (on REST and MCP ${Object.keys(ANALYTICS_PERIODS).join(', ')}).`,
  values: Object.fromEntries(
    Object.entries(ANALYTICS_PERIODS).map(([period, days]) => [
      periodName(period),
      { value: period, description: `${days} day${days === 1 ? '' : 's'} (${period} on REST and MCP).` },
    ]),
  ),
  extensions: { door: { wireValues: Object.fromEntries(Object.keys(ANALYTICS_PERIODS).map((p) => [periodName(p), p])) } satisfies DoorEnum },
});

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
    reportedMessages: t.exposeInt('reportedMessages', {
      nullable: true,
      description: "Messages receivers' DMARC aggregate reports counted in the period; null (never 0) without a report.",
    }),
    dmarcPassRate: t.exposeFloat('dmarcPassRate', { nullable: true, description: 'Percentage of reported messages that passed DMARC; null without a report.' }),
    failingSources: t.exposeInt('failingSources', { nullable: true, description: 'Source addresses with messages failing DMARC; null without a report.' }),
    tlsSessions: t.exposeInt('tlsSessions', { nullable: true, description: 'TLS sessions TLS-RPT reports counted; null without a TLS report.' }),
    tlsFailureRate: t.exposeFloat('tlsFailureRate', { nullable: true, description: 'Percentage of those sessions that failed; null without a TLS report.' }),
  }),
});

const AnalyticsRef = builder.objectRef<Analytics>('Analytics').implement({
  fields: (t) => ({
    period: t.field({ type: AnalyticsPeriodEnum, description: 'The period asked for, ending today.', resolve: (a) => a.period }),
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    domains: t.field({ type: [DomainDeliverabilityRef], resolve: (a) => a.domains }),
  }),
});

builder.queryField('analytics', (t) =>
  t.field({
    type: AnalyticsRef,
    description: "Deliverability of the caller's domains over a period; a domain not yet watched carries null, never 0.",
    authScopes: { read: true },
    args: { period: t.arg({ type: AnalyticsPeriodEnum, required: false, description: 'Default P7D (7d on REST and MCP).' }) },
    resolve: (_root, args, ctx) => getAnalytics(ctx, args.period),
  }),
);
