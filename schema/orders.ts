import { builder } from './builder.js';
import { OrderStatusEnum } from './status-enums.js';
import { SequencerEnum } from './order-settings.js';
import { listOrders, listOrdersPage, type OrderSummary } from '../resolvers/account/list-orders.js';
import { CONNECTION_ARGS_TEXT, PAGE_ON_THE_WIRE, connectionOf } from './connection.js';

export const OrderSummaryRef = builder.objectRef<OrderSummary>('OrderSummary').implement({
  fields: (t) => ({
    orderId: t.exposeInt('orderId'),
    subscriptionId: t.exposeString('subscriptionId'),
    reference: t.exposeString('reference'),
    sku: t.exposeString('sku'),
    product: t.exposeString('product'),
    status: t.field({ type: OrderStatusEnum, resolve: (o) => o.status }),
    quantity: t.exposeInt('quantity'),
    unitAmount: t.exposeInt('unitAmount', { description: 'Minor units (cents).' }),
    currency: t.exposeString('currency'),
    interval: t.exposeString('interval'),
    renewalTotal: t.exposeInt('renewalTotal', { description: 'What every renewal costs, minor units.' }),
    sequencer: t.field({ type: SequencerEnum, nullable: true, resolve: (o) => o.sequencer }),
    monitorReconnection: t.exposeBoolean('monitorReconnection'),
    monitorDeliverability: t.exposeBoolean('monitorDeliverability'),
    domainCount: t.exposeInt('domainCount'),
    mailboxCount: t.exposeInt('mailboxCount'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('orders', (t) =>
  t.field({
    type: [OrderSummaryRef],
    description: "Every one of the caller's orders, newest first, in one list.",
    deprecationReason: 'Unbounded: use ordersConnection(first, after), which pages.',
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => listOrders(ctx),
  }),
);

const OrderConnectionRef = connectionOf('Order', OrderSummaryRef, "A page of the caller's orders, newest first.", 'orders');

builder.queryField('ordersConnection', (t) =>
  t.field({
    type: OrderConnectionRef,
    extensions: PAGE_ON_THE_WIRE,
    description: `The caller's orders, newest first (ties by orderId), a page at a time: ${CONNECTION_ARGS_TEXT} (an orderId).`,
    authScopes: { read: true },
    args: { first: t.arg.int({ required: false }), after: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => listOrdersPage(args, ctx),
  }),
);
