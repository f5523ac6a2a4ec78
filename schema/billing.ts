import { builder } from './builder.js';
import { getBilling, type Billing, type BillingInvoice } from '../resolvers/account/get-billing.js';

const InvoiceRef = builder.objectRef<BillingInvoice>('Invoice').implement({
  fields: (t) => ({
    number: t.exposeString('number'),
    status: t.exposeString('status', { description: 'paid, open, void or uncollectible.' }),
    amountDue: t.exposeInt('amountDue'),
    amountPaid: t.exposeInt('amountPaid'),
    currency: t.exposeString('currency'),
    issuedAt: t.expose('issuedAt', { type: 'DateTime' }),
    dueAt: t.expose('dueAt', { type: 'DateTime' }),
    paidAt: t.expose('paidAt', { type: 'DateTime', nullable: true }),
    orderReference: t.exposeString('orderReference', { nullable: true }),
    pastDue: t.exposeBoolean('pastDue'),
  }),
});

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
    invoices: t.field({ type: [InvoiceRef], resolve: (b) => b.invoices }),
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
