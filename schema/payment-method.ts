import { builder } from './builder.js';
import { getPaymentMethod, type PaymentMethodView } from '../resolvers/account/get-payment-method.js';

const PaymentMethodRef = builder.objectRef<PaymentMethodView>('PaymentMethod').implement({
  fields: (t) => ({
    onFile: t.exposeBoolean('onFile'),
    brand: t.exposeString('brand', { nullable: true }),
    last4: t.exposeString('last4', { nullable: true }),
    expMonth: t.exposeInt('expMonth', { nullable: true }),
    expYear: t.exposeInt('expYear', { nullable: true }),
  }),
});

builder.queryField('paymentMethod', (t) =>
  t.field({
    type: PaymentMethodRef,
    description: 'Whether a card is on file, as brand and last four.',
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => getPaymentMethod(ctx),
  }),
);
