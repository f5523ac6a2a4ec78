import { builder } from '../builder.js';
import type { checkDomainExpiry } from '../../resolvers/checks/domain-expiry/check-domain-expiry.js';
import { CheckAnswer, type AnswerOf } from './common.js';

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
    domainUnicode: t.exposeString('domainUnicode', { nullable: true }),
    registeredDomain: t.exposeString('registeredDomain'),
    registered: t.exposeBoolean('registered', { nullable: true }),
    registrar: t.exposeString('registrar', { nullable: true }),
    created: t.exposeString('created', { nullable: true }),
    expires: t.exposeString('expires', { nullable: true }),
    daysRemaining: t.exposeInt('daysRemaining', { nullable: true }),
    ageDays: t.exposeInt('ageDays', { nullable: true }),
    source: t.expose('source', { type: RegistrationSource, nullable: true }),
    server: t.exposeString('server', { nullable: true }),
  }),
});
