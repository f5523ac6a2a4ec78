import { builder } from './builder.js';
import { BuildStateEnum } from './domain-setup.js';
import { OrderStatusEnum } from './status-enums.js';
import { getDashboard, type Dashboard, type DashboardDomain, type DashboardOrder } from '../resolvers/account/get-dashboard.js';

const BuildProblemRef = builder.objectRef<DashboardDomain['buildProblems'][number]>('BuildProblem').implement({
  fields: (t) => ({
    code: t.exposeString('code', { description: 'build_mx_missing, build_spf, build_dkim, build_dmarc or build_forwarding (docs/checks.md).' }),
    message: t.exposeString('message', { description: 'What is wrong and what to publish, in a sentence.' }),
  }),
});

const DashboardDomainRef = builder.objectRef<DashboardDomain>('DashboardDomain').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    buildState: t.field({ type: BuildStateEnum, resolve: (d) => d.buildState }),
    mailboxCount: t.exposeInt('mailboxCount'),
    forwardTo: t.exposeString('forwardTo', { nullable: true }),
    workspaceId: t.exposeInt('workspaceId', { nullable: true }),
    workspaceName: t.exposeString('workspaceName', { nullable: true }),
    buildReason: t.exposeString('buildReason', { nullable: true, description: 'Why the domain needs attention; null otherwise.' }),
    buildProblems: t.field({
      type: [BuildProblemRef],
      description: 'What our DNS checks found when the domain was built.',
      resolve: (d) => [...d.buildProblems],
    }),
  }),
});

const DashboardOrderRef = builder.objectRef<DashboardOrder>('DashboardOrder').implement({
  fields: (t) => ({
    orderId: t.exposeInt('orderId'),
    subscriptionId: t.exposeString('subscriptionId'),
    reference: t.exposeString('reference'),
    sku: t.exposeString('sku'),
    product: t.exposeString('product'),
    status: t.field({ type: OrderStatusEnum, resolve: (o) => o.status }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    domains: t.field({ type: [DashboardDomainRef], resolve: (o) => o.domains }),
  }),
});

const DashboardRef = builder.objectRef<Dashboard>('Dashboard').implement({
  fields: (t) => ({
    accountId: t.exposeInt('accountId'),
    accountName: t.exposeString('accountName'),
    orderCount: t.exposeInt('orderCount'),
    domainCount: t.exposeInt('domainCount'),
    mailboxCount: t.exposeInt('mailboxCount'),
    orders: t.field({ type: [DashboardOrderRef], resolve: (d) => d.orders }),
  }),
});

builder.queryField('dashboard', (t) =>
  t.field({
    type: DashboardRef,
    description: 'Every owned domain, grouped by the order that paid for it, with build state and mailbox count.',
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => getDashboard(ctx),
  }),
);
