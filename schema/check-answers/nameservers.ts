import { builder } from '../builder.js';
import type { checkNameservers } from '../../resolvers/checks/nameservers/check-nameservers.js';
import { CheckAnswer, DnssecStatus, type AnswerOf } from './common.js';
import { absentWhenNull } from '../wire-field-extension.js';

// check-nameservers: its answer, each object over the part of the resolver's return type it mirrors.
type Nameservers = AnswerOf<typeof checkNameservers>;
type NameserverResultShape = Nameservers['results'][number];
type DelegationHealthShape = NonNullable<NameserverResultShape['delegation']>;

export const NameserverOutcome = builder.enumType('NameserverOutcome', {
  description: 'How the NS lookup went.',
  values: ['ok', 'no_nameservers', 'not_found', 'invalid', 'lookup_failed'] as const,
});
export const NameserverStatus = builder.enumType('NameserverStatus', {
  description: 'How a name server answered for the zone.',
  values: ['authoritative', 'lame', 'unreachable', 'no_address'] as const,
});
export const NameserverProvider = builder.objectRef<NameserverResultShape['providers'][number]>('NameserverProvider').implement({
  description: 'A DNS host and the name servers it runs for the domain.',
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    nameservers: t.exposeStringList('nameservers'),
  }),
});
export const NameserverHealth = builder.objectRef<DelegationHealthShape['servers'][number]>('NameserverHealth').implement({
  description: 'One name server asked directly.',
  fields: (t) => ({
    nameserver: t.exposeString('nameserver'),
    addresses: t.exposeStringList('addresses'),
    status: t.expose('status', { type: NameserverStatus }),
    serial: t.exposeFloat('serial', { nullable: true }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});
export const DelegationHealth = builder.objectRef<DelegationHealthShape>('DelegationHealth').implement({
  description: "Parent and child NS sets and each server's answer (single-domain calls).",
  fields: (t) => ({
    parentZone: t.exposeString('parentZone'),
    parentNameservers: t.exposeStringList('parentNameservers', { nullable: true }),
    parentReason: t.exposeString('parentReason', { nullable: true }),
    childNameservers: t.exposeStringList('childNameservers'),
    onlyAtParent: t.exposeStringList('onlyAtParent'),
    onlyAtChild: t.exposeStringList('onlyAtChild'),
    servers: t.expose('servers', { type: [NameserverHealth] }),
    serialsAgree: t.exposeBoolean('serialsAgree', { nullable: true }),
  }),
});
export const NameserverResult = builder.objectRef<NameserverResultShape>('NameserverResult').implement({
  description: "One domain's name servers.",
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true }),
    zone: t.exposeString('zone', { nullable: true }),
    outcome: t.expose('outcome', { type: NameserverOutcome }),
    nameservers: t.exposeStringList('nameservers'),
    providers: t.expose('providers', { type: [NameserverProvider] }),
    provider: t.exposeString('provider', { nullable: true }),
    reason: t.exposeString('reason', { nullable: true }),
    dnssec: t.expose('dnssec', { type: DnssecStatus, nullable: true }),
    delegation: t.expose('delegation', {
      type: DelegationHealth,
      nullable: true,
      description: 'Only when one domain was asked, and its NS lookup succeeded or failed with the parent reachable (a lame zone).',
      extensions: absentWhenNull(),
    }),
  }),
});
// Passed through as the check wrote it (builder.ts types it unknown).
builder.scalarType('ProviderCounts', {
  description:
    'An object mapping a DNS provider\'s display name (or "Mixed", "unknown") to its number of domains. ' +
    'A scalar because its keys are provider names with spaces, which are not GraphQL names.',
  serialize: (value) => value,
  parseValue: (value) => value,
});
export const NameserversAnswer = builder.objectRef<Nameservers>('NameserversAnswer').implement({
  description: 'check-nameservers: NS records and DNS provider per domain.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    results: t.expose('results', { type: [NameserverResult] }),
    providerCounts: t.expose('providerCounts', { type: 'ProviderCounts' }),
  }),
});
