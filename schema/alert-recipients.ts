import { builder } from './builder.js';
import { getAlertRecipients, setAlertRecipients, MAX_ALERT_RECIPIENTS, type AlertRecipients } from '../resolvers/alerts/alert-recipients.js';

const AlertRecipientsRef = builder.objectRef<AlertRecipients>('AlertRecipients').implement({
  description: "Addresses that receive alert e-mails besides the account's people (who always receive them).",
  fields: (t) => ({
    emails: t.exposeStringList('emails', { description: 'Lower-cased, each once, sorted.' }),
    maxEmails: t.exposeInt('maxEmails', { description: 'How many the account may have.' }),
  }),
});

const AlertRecipientsInput = builder.inputType('AlertRecipientsInput', {
  fields: (t) => ({
    emails: t.stringList({
      required: true,
      description: `The whole list (it replaces the one before): at most ${MAX_ALERT_RECIPIENTS} e-mail addresses; [] for none.`,
    }),
  }),
});

builder.queryField('alertRecipients', (t) =>
  t.field({
    type: AlertRecipientsRef,
    description: "The extra addresses alert e-mails go to, besides the account's people.",
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => getAlertRecipients(ctx),
  }),
);

builder.mutationField('setAlertRecipients', (t) =>
  t.field({
    type: AlertRecipientsRef,
    description: `Replaces the extra alert addresses (at most ${MAX_ALERT_RECIPIENTS}); the next event goes to the new list.`,
    authScopes: { write: true },
    args: { input: t.arg({ type: AlertRecipientsInput, required: true }) },
    resolve: (_root, args, ctx) => setAlertRecipients(args.input, ctx),
  }),
);
