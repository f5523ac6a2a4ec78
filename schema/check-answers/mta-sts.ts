import { builder } from '../builder.js';
import type { checkMtaSts } from '../../resolvers/checks/mta-sts/check-mta-sts.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { wireName } from './wire-extensions.js';
import { absentWhenNull } from '../wire-field-extension.js';

// check-mta-sts: its answer, each object over the part of the resolver's return type it mirrors.
type MtaSts = AnswerOf<typeof checkMtaSts>;

export const MtaStsMode = builder.enumType('MtaStsMode', { description: 'The policy mode.', values: ['enforce', 'testing', 'none'] as const });
export const MtaStsPolicy = builder.objectRef<NonNullable<MtaSts['policy']>>('MtaStsPolicy').implement({
  description: 'The policy file.',
  fields: (t) => ({
    version: t.exposeString('version'),
    mode: t.expose('mode', { type: MtaStsMode }),
    mx: t.exposeStringList('mx'),
    maxAge: t.exposeInt('max_age', { extensions: wireName('max_age') }),
  }),
});
export const MtaStsMxHost = builder.objectRef<MtaSts['mx_hosts'][number]>('MtaStsMxHost').implement({
  description: 'A real MX host and whether the policy covers it.',
  fields: (t) => ({
    host: t.exposeString('host'),
    matchesPolicy: t.exposeBoolean('matches_policy', { nullable: true, extensions: wireName('matches_policy') }),
  }),
});
export const TlsRptSummary = builder.objectRef<NonNullable<MtaSts['tls_rpt']>>('TlsRptSummary').implement({
  description: 'The _smtp._tls record.',
  fields: (t) => ({
    record: t.exposeString('record'),
    rua: t.exposeStringList('rua'),
    valid: t.exposeBoolean('valid'),
  }),
});
export const MtaStsAnswer = builder.objectRef<MtaSts>('MtaStsAnswer').implement({
  description: 'check-mta-sts: record, policy and TLS-RPT.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domain_unicode', { nullable: true, extensions: absentWhenNull() }),
    record: t.exposeString('record', { nullable: true }),
    recordId: t.exposeString('record_id', { nullable: true, extensions: wireName('record_id') }),
    policyUrl: t.exposeString('policy_url', { extensions: wireName('policy_url') }),
    policy: t.expose('policy', { type: MtaStsPolicy, nullable: true }),
    policyError: t.exposeString('policy_error', { nullable: true, extensions: wireName('policy_error') }),
    mxHosts: t.expose('mx_hosts', { type: [MtaStsMxHost], extensions: wireName('mx_hosts') }),
    tlsRpt: t.expose('tls_rpt', { type: TlsRptSummary, nullable: true, extensions: wireName('tls_rpt') }),
  }),
});
