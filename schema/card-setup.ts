import { builder } from './builder.js';
import { createCardSetupLink, type CardSetupLink } from '../resolvers/orders/card-setup-link.js';

const CardSetupLinkInput = builder.inputType('CardSetupLinkInput', {
  fields: (t) => ({
    successUrl: t.string({
      required: false,
      description:
        "Optional: the http(s) page to return to after saving the card, followed when reachable (the service's own host, or https on a public DNS name); otherwise the portal's page confirming the card is saved.",
    }),
    cancelUrl: t.string({
      required: false,
      description: "Optional: the http(s) page to return to on cancel, on the same terms; otherwise the portal's billing page.",
    }),
  }),
});

const CardSetupLinkRef = builder.objectRef<CardSetupLink>('CardSetupLink').implement({
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Open in a browser to save a card.' }),
    expiresAt: t.exposeString('expiresAt'),
  }),
});

builder.mutationField('createCardSetupLink', (t) =>
  t.field({
    type: CardSetupLinkRef,
    description: 'A link to a payment processor page where a person saves a card.',
    authScopes: { ordersPlace: true },
    args: { input: t.arg({ type: CardSetupLinkInput, required: true }) },
    resolve: (_root, args, ctx) => createCardSetupLink(args.input, ctx),
  }),
);
