import { builder } from '../builder.js';
import type { checkDomainExpiry } from '../../resolvers/checks/domain-expiry/check-domain-expiry.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { wireName } from './wire-extensions.js';

// check-domain-expiry: its answer, each object over the part of the resolver's return type it mirrors.
type DomainExpiry = AnswerOf<typeof checkDomainExpiry>;

export const RegistrationSource = builder.enumType('RegistrationSource', {
  description: 'Where the registration data came from.',
  values: ['rdap', 'whois'] as const,
});
export const DomainExpiryAnswer = builder.objectRef<DomainExpiry>('DomainExpiryAnswer').implement({
  description: 'check-domain-expiry: registration and expiry over RDAP or WHOIS.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domain_unicode', { nullable: true, extensions: wireName('domain_unicode') }),
    registeredDomain: t.exposeString('registered_domain', { extensions: wireName('registered_domain') }),
    registered: t.exposeBoolean('registered', { nullable: true }),
    registrar: t.exposeString('registrar', { nullable: true }),
    created: t.exposeString('created', { nullable: true }),
    expires: t.exposeString('expires', { nullable: true }),
    daysRemaining: t.exposeInt('days_remaining', { nullable: true, extensions: wireName('days_remaining') }),
    ageDays: t.exposeInt('age_days', { nullable: true, extensions: wireName('age_days') }),
    source: t.expose('source', { type: RegistrationSource, nullable: true }),
    server: t.exposeString('server', { nullable: true }),
  }),
});
