import { builder } from './builder.js';
import { OrderStatusEnum } from './status-enums.js';
import { ORDER_LIMITS } from '../resolvers/orders/order-input.js';
import { previewOrder, type OrderPreview } from '../resolvers/orders/preview-order.js';
import { placeOrder } from '../resolvers/orders/place-order.js';
import { reinstateOrder, type ReinstatedOrder } from '../resolvers/orders/reinstate-order.js';
import { REINSTATE_GRACE_DAYS } from '../resolvers/orders/reinstatement-checks.js';
import type { PlacedOrder } from '../resolvers/orders/record-order.js';
import type { OrderPrice } from '../resolvers/orders/price-order.js';
import type { AppliedDiscount } from '../resolvers/orders/promotion-codes.js';
import type { DomainProblems, OrderIssue } from '../resolvers/orders/order-problems.js';

// Inputs name what to build, never what to charge (SPEC 2.2): there is no price field to send, so
// a price-like field anywhere is an unknown field, refused by input coercion on every door.
const OrderMailboxInput = builder.inputType('OrderMailboxInput', {
  fields: (t) => ({
    firstName: t.string({
      required: true,
      description: '1 to 64 letters (spaces, hyphens, apostrophes and dots allowed), starting with a letter.',
      extensions: { jsonSchema: { minLength: 1, maxLength: 64 } },
    }),
    lastName: t.string({
      required: true,
      description: '1 to 64 letters (spaces, hyphens, apostrophes and dots allowed), starting with a letter.',
      extensions: { jsonSchema: { minLength: 1, maxLength: 64 } },
    }),
    localPart: t.string({
      required: true,
      description: 'The part before the @: 1 to 64 of a-z, 0-9, dot, hyphen and underscore, starting and ending with a letter or digit.',
      extensions: { jsonSchema: { minLength: 1, maxLength: 64 } },
    }),
  }),
});

const OrderDomainInput = builder.inputType('OrderDomainInput', {
  fields: (t) => ({
    domain: t.string({ required: true, description: 'A registered domain the caller owns.' }),
    forwardTo: t.string({ required: false, description: 'The domain visitors of this one are forwarded to.' }),
    mailboxes: t.field({
      type: [OrderMailboxInput],
      required: true,
      description: `The domain's mailboxes; at most ${ORDER_LIMITS.mailboxes.toLocaleString('en-US')} mailboxes across the whole order.`,
      extensions: { jsonSchema: { minItems: 1, maxItems: ORDER_LIMITS.mailboxes } },
    }),
  }),
});

const OrderInput = builder.inputType('OrderInput', {
  fields: (t) => ({
    sku: t.string({ required: true }),
    promotionCode: t.string({ required: false }),
    domains: t.field({
      type: [OrderDomainInput],
      required: true,
      description: `At most ${ORDER_LIMITS.domains} domains and ${ORDER_LIMITS.mailboxes.toLocaleString('en-US')} mailboxes per order (SPEC 4.2).`,
      extensions: { jsonSchema: { minItems: 1, maxItems: ORDER_LIMITS.domains } },
    }),
  }),
});

const OrderIssueRef = builder.objectRef<OrderIssue>('OrderIssue').implement({
  fields: (t) => ({
    severity: t.exposeString('severity', { description: 'error (refuses the order) or warning.' }),
    code: t.exposeString('code'),
    field: t.exposeString('field'),
    message: t.exposeString('message'),
  }),
});

const DomainProblemsRef = builder.objectRef<DomainProblems>('DomainProblems').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    index: t.exposeInt('index'),
    issues: t.field({ type: [OrderIssueRef], resolve: (p) => p.issues }),
  }),
});

const OrderPriceRef = builder.objectRef<OrderPrice>('OrderPrice').implement({
  fields: (t) => ({
    unitAmount: t.exposeInt('unitAmount', { description: 'Minor units per unit.' }),
    currency: t.exposeString('currency'),
    interval: t.exposeString('interval'),
    mailboxesPerUnit: t.exposeInt('mailboxesPerUnit'),
    total: t.exposeInt('total', { description: 'What every renewal costs, minor units.' }),
    firstInvoice: t.exposeInt('firstInvoice', { description: 'The first invoice with the promotion code applied.' }),
  }),
});

const DiscountRef = builder.objectRef<AppliedDiscount>('OrderDiscount').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    percentOff: t.exposeInt('percentOff', { nullable: true }),
    amountOff: t.exposeInt('amountOff', { nullable: true }),
    duration: t.exposeString('duration', { description: 'once, repeating or forever.' }),
    durationInMonths: t.exposeInt('durationInMonths', { nullable: true }),
    appliesTo: t.exposeString('appliesTo', { description: 'How long the code lasts: first_invoice, first_N_months or every_invoice.' }),
    amount: t.exposeInt('amount', { description: 'What it takes off the first invoice.' }),
    description: t.exposeString('description'),
  }),
});

const OrderPreviewRef = builder.objectRef<OrderPreview>('OrderPreview').implement({
  fields: (t) => ({
    ok: t.exposeBoolean('ok'),
    sku: t.exposeString('sku'),
    product: t.exposeString('product'),
    domains: t.exposeInt('domains'),
    mailboxes: t.exposeInt('mailboxes'),
    quantity: t.exposeInt('quantity'),
    price: t.field({ type: OrderPriceRef, resolve: (p) => p.price }),
    discount: t.field({ type: DiscountRef, nullable: true, resolve: (p) => p.discount }),
    problems: t.field({ type: [DomainProblemsRef], resolve: (p) => p.problems }),
  }),
});

const ChargedRef = builder.objectRef<PlacedOrder['charged']>('Charged').implement({
  fields: (t) => ({ amount: t.exposeInt('amount'), currency: t.exposeString('currency') }),
});

const PlacedOrderRef = builder.objectRef<PlacedOrder>('PlacedOrder').implement({
  fields: (t) => ({
    orderId: t.exposeInt('orderId'),
    reference: t.exposeString('reference'),
    subscriptionId: t.exposeString('subscriptionId'),
    sku: t.exposeString('sku'),
    status: t.field({ type: OrderStatusEnum, resolve: (o) => o.status }),
    quantity: t.exposeInt('quantity'),
    domains: t.exposeInt('domains'),
    mailboxes: t.exposeInt('mailboxes'),
    charged: t.field({ type: ChargedRef, description: 'What the first invoice charged.', resolve: (o) => o.charged }),
    total: t.exposeInt('total', { description: 'What every renewal costs.' }),
    replayed: t.exposeBoolean('replayed', { description: 'True when this answers an earlier order made with the same Idempotency-Key.' }),
  }),
});

builder.queryField('previewOrder', (t) =>
  t.field({
    type: OrderPreviewRef,
    description: 'Checks and prices an order; creates nothing. Runs the same checks as placing.',
    authScopes: { read: true },
    args: { order: t.arg({ type: OrderInput, required: true }) },
    resolve: (_root, args, ctx) => previewOrder(args.order, ctx),
  }),
);

builder.mutationField('placeOrder', (t) =>
  t.field({
    type: PlacedOrderRef,
    description: 'Places the order and charges the card on file.',
    authScopes: { ordersPlace: true },
    args: {
      order: t.arg({ type: OrderInput, required: true }),
      idempotencyKey: t.arg.string({ required: false, description: 'Required: 8 to 64 letters, digits, ".", "-", ":" or "_".' }),
    },
    resolve: (_root, args, ctx) => placeOrder(args.order, args.idempotencyKey, ctx),
  }),
);

const ReinstatedOrderRef = builder.objectRef<ReinstatedOrder>('ReinstatedOrder').implement({
  fields: (t) => ({
    orderId: t.exposeInt('orderId'),
    reference: t.exposeString('reference'),
    subscriptionId: t.exposeString('subscriptionId', { description: "The order's own handle (its paths), unchanged by reinstating." }),
    processorSubscriptionId: t.exposeString('processorSubscriptionId', {
      description: 'The new subscription at the payment processor that pays for the order from now on.',
    }),
    status: t.field({ type: OrderStatusEnum, resolve: (o) => o.status }),
    charged: t.field({ type: ChargedRef, description: "What the new subscription's first invoice charged.", resolve: (o) => o.charged }),
    total: t.exposeInt('total', { description: 'What every renewal costs.' }),
    mailboxesToReactivate: t.exposeInt('mailboxesToReactivate', {
      description: 'How many suspended mailboxes are being taken up again at the provider (each domain then raises mailbox.reactivated).',
    }),
    replayed: t.exposeBoolean('replayed', { description: 'True when this answers an earlier reinstatement made with the same Idempotency-Key.' }),
  }),
});

builder.mutationField('reinstateOrder', (t) =>
  t.field({
    type: ReinstatedOrderRef,
    description: `Reinstates a cancelled order within ${REINSTATE_GRACE_DAYS} days of its cancellation: a new subscription charged to the card on file, and its suspended mailboxes taken up again.`,
    authScopes: { ordersPlace: true },
    args: {
      orderId: t.arg.int({ required: true }),
      idempotencyKey: t.arg.string({ required: false, description: 'Required: 8 to 64 letters, digits, ".", "-", ":" or "_".' }),
    },
    resolve: (_root, args, ctx) => reinstateOrder(args.orderId, args.idempotencyKey, ctx),
  }),
);
