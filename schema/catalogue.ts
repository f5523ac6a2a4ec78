import { builder } from './builder.js';
import { listCatalogue, type CatalogueEntry } from '../resolvers/account/list-catalogue.js';

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
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => listCatalogue(ctx),
  }),
);
