import { builder } from './builder.js';
import { getDomainVerification, type DomainVerificationView } from '../resolvers/orders/get-domain-verification.js';
import { verifyDomain, type DomainVerificationResult } from '../resolvers/orders/verify-domain.js';
import type { VerificationRecord } from '../resolvers/orders/verification-record.js';

type RecordTemplate = DomainVerificationView['record'];
type VerifiedDomain = DomainVerificationView['verifiedDomains'][number];

const RecordTemplateRef = builder.objectRef<RecordTemplate>('VerificationRecordTemplate').implement({
  description: 'The record that proves a domain is yours, for any domain: replace <domain> in nameTemplate.',
  fields: (t) => ({
    nameTemplate: t.exposeString('nameTemplate', { description: '_inbox-verification.<domain>' }),
    type: t.exposeString('type', { description: 'Always TXT.' }),
    value: t.exposeString('value', { description: 'The exact text of the TXT record: inbox-verification=<token>.' }),
  }),
});

const VerifiedDomainRef = builder.objectRef<VerifiedDomain>('VerifiedDomain').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    verifiedAt: t.exposeString('verifiedAt', { description: 'When the record was first seen; the domain stays verified.' }),
  }),
});

const DomainVerificationRef = builder.objectRef<DomainVerificationView>('DomainVerification').implement({
  fields: (t) => ({
    token: t.exposeString('token', { description: "The account's verification token." }),
    record: t.field({ type: RecordTemplateRef, resolve: (v) => v.record }),
    verifiedDomains: t.field({ type: [VerifiedDomainRef], resolve: (v) => v.verifiedDomains }),
  }),
});

const VerificationRecordRef = builder.objectRef<VerificationRecord>('VerificationRecord').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    type: t.exposeString('type'),
    value: t.exposeString('value'),
  }),
});

const DomainVerificationResultRef = builder.objectRef<DomainVerificationResult>('DomainVerificationResult').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    verified: t.exposeBoolean('verified'),
    verifiedAt: t.exposeString('verifiedAt', { nullable: true }),
    record: t.field({ type: VerificationRecordRef, description: 'The record to publish for this domain.', resolve: (r) => r.record }),
    detail: t.exposeString('detail', { description: 'What was found, and what to do when not verified.' }),
  }),
});

builder.queryField('domainVerification', (t) =>
  t.field({
    type: DomainVerificationRef,
    description: 'Your verification token, the TXT record that proves a domain is yours, and the domains already proved.',
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => getDomainVerification(ctx),
  }),
);

builder.mutationField('verifyDomain', (t) =>
  t.field({
    type: DomainVerificationResultRef,
    description:
      'Looks the TXT at _inbox-verification.<domain> up now; once it holds your token the domain stays verified. With connectionId the TXT is first published through that DNS connection of yours.',
    authScopes: { write: true },
    args: {
      domain: t.arg.string({ required: true }),
      connectionId: t.arg.int({
        required: false,
        description: 'One of your DNS connections: the proof TXT is published through it first, then read from the zone, so the domain is proved at once.',
      }),
    },
    resolve: (_root, args, ctx) => verifyDomain(args.domain, ctx, args.connectionId),
  }),
);
