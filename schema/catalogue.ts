import { builder } from './builder.js';
import type { WireField } from './wire-field-extension.js';
import { listCatalogue, type CatalogueEntry } from '../resolvers/account/list-catalogue.js';
import { requestPlan, type PlanRequest } from '../resolvers/account/request-plan.js';

const CatalogueEntryRef = builder.objectRef<CatalogueEntry>('CatalogueEntry').implement({
  fields: (t) => ({
    sku: t.exposeString('sku'),
    product: t.exposeString('product'),
    description: t.exposeString('description'),
    unitAmount: t.exposeInt('unitAmount', { description: 'Price of one unit per interval, minor units.' }),
    currency: t.exposeString('currency'),
    interval: t.exposeString('interval'),
    mailboxesPerUnit: t.exposeInt('mailboxesPerUnit'),
    orderable: t.exposeBoolean('orderable'),
    whyNot: t.exposeString('whyNot', { nullable: true }),
  }),
});

builder.queryField('catalogue', (t) =>
  t.field({
    type: [CatalogueEntryRef],
    description: 'What can be ordered and at what price: only plans the caller is already on.',
    extensions: { wireName: 'plans' } satisfies WireField,
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => listCatalogue(ctx),
  }),
);

const PlanRequestInput = builder.inputType('PlanRequestInput', {
  fields: (t) => ({
    message: t.string({ required: true, description: 'What you want to order, in a sentence or two (1 to 2,000 characters).' }),
    sku: t.string({ required: false, description: 'A plan of your catalogue you want but cannot order yet, if any.' }),
  }),
});

const PlanRequestRef = builder.objectRef<PlanRequest>('PlanRequest').implement({
  fields: (t) => ({
    requested: t.exposeBoolean('requested'),
    detail: t.exposeString('detail', { description: 'What happens next, in a sentence.' }),
  }),
});

builder.mutationField('requestPlan', (t) =>
  t.field({
    type: PlanRequestRef,
    description: 'Asks our team to put the account on a plan (when the catalogue is empty or holds none you can order).',
    authScopes: { write: true },
    args: { input: t.arg({ type: PlanRequestInput, required: true }) },
    resolve: (_root, args, ctx) => requestPlan(args.input, ctx),
  }),
);
