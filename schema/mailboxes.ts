import { builder } from './builder.js';
import { MAILBOX_STATUSES } from '../clients/mailboxes/mailbox-provider.js';
import {
  listDomainMailboxes,
  resetMailboxPassword,
  revealMailboxCredentials,
  type MailboxCredentials,
  type MailboxListing,
} from '../resolvers/mailboxes/domain-mailboxes.js';
import { exportOrderMailboxes } from '../resolvers/mailboxes/export-mailboxes.js';

const MailboxStatusEnum = builder.enumType('MailboxStatus', {
  description: 'pending: not created at the provider yet (the build makes it). active: created and usable. suspended: the provider stopped it.',
  values: Object.fromEntries(MAILBOX_STATUSES.map((s) => [s, { value: s }])),
});

const MailboxRef = builder.objectRef<MailboxListing>('Mailbox').implement({
  description: 'A mailbox on one of your domains and its status at the provider. Lists never hold its password.',
  fields: (t) => ({
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    status: t.field({ type: MailboxStatusEnum, resolve: (m) => m.status }),
  }),
});

const DomainMailboxesRef = builder.objectRef<{ domain: string; mailboxes: MailboxListing[] }>('DomainMailboxes').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    mailboxes: t.field({ type: [MailboxRef], resolve: (d) => d.mailboxes }),
  }),
});

const MailboxCredentialsRef = builder.objectRef<MailboxCredentials>('MailboxCredentials').implement({
  description: 'What a sending tool needs to connect to a mailbox: its password (shown on request, each reveal recorded) and the IMAP and SMTP servers.',
  fields: (t) => ({
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    status: t.field({ type: MailboxStatusEnum, resolve: (m) => m.status }),
    username: t.exposeString('username', { description: 'The login: the address itself.' }),
    password: t.exposeString('password', { nullable: true, description: 'null while the mailbox is pending: its build makes the password.' }),
    imapHost: t.exposeString('imapHost'),
    imapPort: t.exposeInt('imapPort', { description: 'IMAP over TLS.' }),
    smtpHost: t.exposeString('smtpHost'),
    smtpPort: t.exposeInt('smtpPort', { description: 'SMTP submission with STARTTLS.' }),
  }),
});

const DomainCredentialsRef = builder.objectRef<{ domain: string; mailboxes: MailboxCredentials[] }>('DomainMailboxCredentials').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    mailboxes: t.field({ type: [MailboxCredentialsRef], resolve: (d) => d.mailboxes }),
  }),
});

builder.queryField('domainMailboxes', (t) =>
  t.field({
    type: DomainMailboxesRef,
    description: 'The mailboxes of a domain on your orders, each with its status at the provider (never a password).',
    authScopes: { read: true },
    args: { domain: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => listDomainMailboxes(args.domain, ctx),
  }),
);

builder.queryField('orderExport', (t) =>
  t.string({
    description:
      "The order's mailboxes with their credentials as CSV in a sequencer's bulk-import columns (docs/mailboxes.md); the order's sequencer is the default format.",
    authScopes: { write: true },
    args: { subscriptionId: t.arg.string({ required: true }), format: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => exportOrderMailboxes(args.subscriptionId, args.format ?? null, ctx),
  }),
);

builder.mutationField('revealMailboxCredentials', (t) =>
  t.field({
    type: DomainCredentialsRef,
    description:
      "Shows the domain's mailbox passwords and IMAP/SMTP servers; each reveal is recorded as a mailbox.credentials_revealed event (without the passwords).",
    authScopes: { write: true },
    args: { domain: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => revealMailboxCredentials(args.domain, ctx),
  }),
);

builder.mutationField('resetMailboxPassword', (t) =>
  t.field({
    type: MailboxCredentialsRef,
    description: 'Gives the mailbox a new generated password at the provider; the old one stops working and is never shown again.',
    authScopes: { write: true },
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => resetMailboxPassword(args.email, ctx),
  }),
);
