import { builder } from './builder.js';
import { BuildStateEnum } from './domain-setup.js';
import { OrderStatusEnum } from './status-enums.js';
import {
  getDashboardSummary,
  listDashboardDomainPage,
  listDashboardOrders,
  type DashboardDomain,
  type DashboardDomainPage,
  type DashboardOrder,
  type DashboardSummary,
} from '../resolvers/account/get-dashboard.js';
import type { WireField } from './wire-field-extension.js';
import { CONNECTION_ARGS_TEXT, PAGE_ON_THE_WIRE, connectionOf } from './connection.js';

const BuildProblemRecordRef = builder.objectRef<NonNullable<DashboardDomain['buildProblems'][number]['record']>>('BuildProblemRecord').implement({
  description: 'The record to publish for a failing setup record.',
  fields: (t) => ({
    type: t.exposeString('type'),
    name: t.exposeString('name'),
    value: t.exposeString('value'),
  }),
});

const BuildProblemRef = builder.objectRef<DashboardDomain['buildProblems'][number]>('BuildProblem').implement({
  fields: (t) => ({
    code: t.exposeString('code', { description: 'build_mx_missing, build_spf, build_dkim, build_dmarc or build_forwarding (docs/checks.md).' }),
    message: t.exposeString('message', { description: 'What is wrong and what to publish, in a sentence.' }),
    record: t.field({
      type: BuildProblemRecordRef,
      nullable: true,
      description: 'The record the sentence speaks of, to publish; null for problems found before records were kept.',
      // The portal's publish button reads it; the REST and MCP dashboard answer says the sentence only.
      extensions: { wireOmit: true } satisfies WireField,
      resolve: (p) => p.record,
    }),
  }),
});

const DashboardDomainRef = builder.objectRef<DashboardDomain>('DashboardDomain').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    // REST and MCP answer a domain inside its order, which carries the id.
    orderId: t.exposeInt('orderId', { description: 'The order that paid for the domain.', extensions: { wireOmit: true } satisfies WireField }),
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

const DashboardDomainConnectionRef = connectionOf<DashboardDomain, DashboardDomainPage>(
  'DashboardDomain',
  DashboardDomainRef,
  "A page of the account's domains, newest order first, then by name.",
  null,
);

builder.objectField(DashboardDomainConnectionRef, 'orders', (t) =>
  t.field({
    type: [DashboardOrderRef],
    description: "This page's domains grouped by the order that paid for them; an order whose domains span two pages is on both, with the domains of each.",
    resolve: (p) => [...p.orders],
  }),
);

const DashboardRef = builder.objectRef<DashboardSummary>('Dashboard').implement({
  fields: (t) => ({
    accountId: t.exposeInt('accountId'),
    accountName: t.exposeString('accountName'),
    orderCount: t.exposeInt('orderCount'),
    domainCount: t.exposeInt('domainCount'),
    mailboxCount: t.exposeInt('mailboxCount'),
    orders: t.field({
      type: [DashboardOrderRef],
      description: 'Every order with every one of its domains, in one list.',
      deprecationReason: 'Unbounded: use domainsConnection(first, after), which pages the domains and groups each page by order.',
      resolve: (_d, _args, ctx) => listDashboardOrders(ctx),
    }),
    domainsConnection: t.field({
      type: DashboardDomainConnectionRef,
      extensions: PAGE_ON_THE_WIRE,
      description: `The account's domains, newest order first and then by name, a page at a time: ${CONNECTION_ARGS_TEXT} (a domain name).`,
      args: { first: t.arg.int({ required: false }), after: t.arg.string({ required: false }) },
      resolve: (_d, args, ctx) => listDashboardDomainPage(args, ctx),
    }),
  }),
});

builder.queryField('dashboard', (t) =>
  t.field({
    type: DashboardRef,
    description: "The account's counts, and every owned domain grouped by the order that paid for it (domainsConnection pages them).",
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => getDashboardSummary(ctx),
  }),
);
