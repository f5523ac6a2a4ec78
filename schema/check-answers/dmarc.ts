import { builder } from '../builder.js';
import type { checkDmarc } from '../../resolvers/checks/dmarc/check-dmarc.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { absentWhenNull } from '../wire-field-extension.js';

// check-dmarc: its answer, each object over the part of the resolver's return type it mirrors.
type Dmarc = AnswerOf<typeof checkDmarc>;

export const DmarcPolicy = builder.enumType('DmarcPolicy', {
  description: 'A DMARC policy (p=, sp=, np=).',
  values: ['none', 'quarantine', 'reject'] as const,
});
export const DmarcAlignment = builder.enumType('DmarcAlignment', { description: 'adkim/aspf: relaxed or strict.', values: ['r', 's'] as const });
export const DmarcTesting = builder.enumType('DmarcTesting', { description: 't=: testing mode.', values: ['y', 'n'] as const });
export const DmarcPsd = builder.enumType('DmarcPsd', { description: 'psd=: public suffix domain flag.', values: ['y', 'n', 'u'] as const });
export const DmarcReportTag = builder.enumType('DmarcReportTag', { description: 'A report tag.', values: ['rua', 'ruf'] as const });
export const DmarcReportProblem = builder.enumType('DmarcReportProblem', {
  description: 'Why a report destination could not be judged.',
  values: ['not_mailto', 'not_an_address', 'lookup_failed'] as const,
});
export const DmarcTagExplained = builder.objectRef<Dmarc['tags'][number]>('DmarcTagExplained').implement({
  description: 'A tag as written, explained.',
  fields: (t) => ({
    tag: t.exposeString('tag'),
    value: t.exposeString('value'),
    meaning: t.exposeString('meaning'),
  }),
});
export const DmarcReportDestination = builder.objectRef<Dmarc['reportDestinations'][number]>('DmarcReportDestination').implement({
  description: 'A report address and whether the receiving domain authorises it (RFC 7489 7.1).',
  fields: (t) => ({
    tag: t.expose('tag', { type: DmarcReportTag }),
    uri: t.exposeString('uri'),
    destination: t.exposeString('destination', { nullable: true }),
    external: t.exposeBoolean('external'),
    authorizationRecord: t.exposeString('authorizationRecord', { nullable: true }),
    authorized: t.exposeBoolean('authorized', { nullable: true }),
    problem: t.expose('problem', { type: DmarcReportProblem, nullable: true }),
  }),
});
export const DmarcAnswer = builder.objectRef<Dmarc>('DmarcAnswer').implement({
  description: 'check-dmarc: the record parsed and explained.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true, extensions: absentWhenNull() }),
    record: t.exposeString('record', { nullable: true }),
    valid: t.exposeBoolean('valid'),
    source: t.exposeString('source', { nullable: true }),
    organizationalDomain: t.exposeString('organizationalDomain', { nullable: true }),
    inherited: t.exposeBoolean('inherited'),
    policy: t.expose('policy', { type: DmarcPolicy, nullable: true }),
    subdomainPolicy: t.expose('subdomainPolicy', { type: DmarcPolicy, nullable: true }),
    effectivePolicy: t.expose('effectivePolicy', { type: DmarcPolicy, nullable: true }),
    pct: t.exposeInt('pct', { nullable: true }),
    adkim: t.expose('adkim', { type: DmarcAlignment, nullable: true }),
    aspf: t.expose('aspf', { type: DmarcAlignment, nullable: true }),
    rua: t.exposeStringList('rua'),
    ruf: t.exposeStringList('ruf'),
    fo: t.exposeStringList('fo', { nullable: true }),
    ri: t.exposeFloat('ri', {
      nullable: true,
      description: 'Report interval in seconds, up to 4294967295 (a whole number; Float because GraphQL Int stops at 2^31).',
    }),
    np: t.expose('np', { type: DmarcPolicy, nullable: true }),
    t: t.expose('t', { type: DmarcTesting, nullable: true }),
    psd: t.expose('psd', { type: DmarcPsd, nullable: true }),
    tags: t.expose('tags', { type: [DmarcTagExplained] }),
    reportDestinations: t.expose('reportDestinations', { type: [DmarcReportDestination] }),
  }),
});
