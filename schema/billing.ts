import { builder } from './builder.js';
import { InvoiceStatusEnum } from './status-enums.js';
import { getBilling, listAllInvoices, listInvoicesPage, type Billing, type BillingInvoice, type InvoiceLine } from '../resolvers/account/get-billing.js';
import { CONNECTION_ARGS_TEXT, PAGE_ON_THE_WIRE, connectionOf } from './connection.js';
import { payInvoices, type PaidInvoices } from '../resolvers/account/pay-invoices.js';
import type { InvoicePaymentOutcome } from '../resolvers/orders/pay-open-invoices.js';

const InvoiceLineRef = builder.objectRef<InvoiceLine>('InvoiceLine').implement({
  fields: (t) => ({
    description: t.exposeString('description'),
    quantity: t.exposeInt('quantity'),
    unitAmount: t.exposeInt('unitAmount', { description: 'Minor units; negative for a discount.' }),
    amount: t.exposeInt('amount'),
  }),
});

const InvoiceRef = builder.objectRef<BillingInvoice>('Invoice').implement({
  fields: (t) => ({
    number: t.exposeString('number'),
    status: t.field({ type: InvoiceStatusEnum, resolve: (i) => i.status }),
    amountDue: t.exposeInt('amountDue'),
    amountPaid: t.exposeInt('amountPaid'),
    currency: t.exposeString('currency'),
    issuedAt: t.expose('issuedAt', { type: 'DateTime' }),
    dueAt: t.expose('dueAt', { type: 'DateTime' }),
    paidAt: t.expose('paidAt', { type: 'DateTime', nullable: true }),
    orderReference: t.exposeString('orderReference', { nullable: true }),
    pastDue: t.exposeBoolean('pastDue'),
    amountRemaining: t.exposeInt('amountRemaining', { description: 'What is still owed, minor units.' }),
    lines: t.field({ type: [InvoiceLineRef], resolve: (i) => i.lines }),
    domains: t.exposeStringList('domains', { description: 'The domains of the order this invoice bills.' }),
    hostedInvoiceUrl: t.exposeString('hostedInvoiceUrl', { nullable: true, description: "The processor's page for this invoice, when it has one." }),
    lastPaymentError: t.exposeString('lastPaymentError', { nullable: true, description: 'Why the last attempt to pay failed, while it is open.' }),
  }),
});

const InvoiceConnectionRef = connectionOf('Invoice', InvoiceRef, "A page of the account's invoices, newest first.", 'invoices');

const NextChargeRef = builder.objectRef<NonNullable<Billing['nextCharge']>>('NextCharge').implement({
  fields: (t) => ({
    amount: t.exposeInt('amount'),
    currency: t.exposeString('currency'),
    date: t.expose('date', { type: 'DateTime' }),
  }),
});

const BillingRef = builder.objectRef<Billing>('Billing').implement({
  fields: (t) => ({
    currency: t.exposeString('currency'),
    monthToDateSpend: t.exposeInt('monthToDateSpend'),
    pastDueAmount: t.exposeInt('pastDueAmount'),
    pastDueInvoices: t.field({ type: [InvoiceRef], resolve: (b) => b.pastDueInvoices }),
    nextCharge: t.field({ type: NextChargeRef, nullable: true, resolve: (b) => b.nextCharge }),
    invoices: t.field({
      type: [InvoiceRef],
      description: 'Every invoice, newest first, in one list.',
      deprecationReason: 'Unbounded: use invoicesConnection(first, after), which pages.',
      resolve: (_b, _args, ctx) => listAllInvoices(ctx),
    }),
    invoicesConnection: t.field({
      type: InvoiceConnectionRef,
      extensions: PAGE_ON_THE_WIRE,
      description: `The invoices, newest first (by issue time), a page at a time: ${CONNECTION_ARGS_TEXT} (an invoice number).`,
      args: { first: t.arg.int({ required: false }), after: t.arg.string({ required: false }) },
      resolve: (_b, args, ctx) => listInvoicesPage(args, ctx),
    }),
  }),
});

builder.queryField('billing', (t) =>
  t.field({
    type: BillingRef,
    description: "Invoices, this month's spend, anything past due, the next charge.",
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => getBilling(ctx),
  }),
);

const PayInvoicesInput = builder.inputType('PayInvoicesInput', {
  fields: (t) => ({
    invoiceNumber: t.string({ required: false, description: 'One invoice to pay; leave it out to pay every open invoice.' }),
  }),
});

const InvoicePaymentRef = builder.objectRef<InvoicePaymentOutcome>('InvoicePayment').implement({
  fields: (t) => ({
    number: t.exposeString('number'),
    amount: t.exposeInt('amount'),
    currency: t.exposeString('currency'),
    outcome: t.exposeString('outcome', { description: 'paid, declined, no_card, unavailable, in_progress or not_ours.' }),
    message: t.exposeString('message'),
  }),
});

const PaidInvoicesRef = builder.objectRef<PaidInvoices>('PaidInvoices').implement({
  fields: (t) => ({
    paidCount: t.exposeInt('paidCount'),
    paidAmount: t.exposeInt('paidAmount'),
    currency: t.exposeString('currency'),
    results: t.field({ type: [InvoicePaymentRef], resolve: (p) => p.results }),
    detail: t.exposeString('detail'),
  }),
});

builder.mutationField('payInvoices', (t) =>
  t.field({
    type: PaidInvoicesRef,
    description: 'Pays the open invoices (or the one named) with the card on file, now.',
    authScopes: { ordersPlace: true },
    args: { input: t.arg({ type: PayInvoicesInput, required: true }) },
    resolve: (_root, args, ctx) => payInvoices(args.input, ctx),
  }),
);
