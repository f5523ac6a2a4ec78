import { builder } from '../builder.js';
import type { checkMtaSts } from '../../resolvers/checks/mta-sts/check-mta-sts.js';
import { CheckAnswer, type AnswerOf } from './common.js';
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
    maxAge: t.exposeInt('maxAge'),
  }),
});
export const MtaStsMxHost = builder.objectRef<MtaSts['mxHosts'][number]>('MtaStsMxHost').implement({
  description: 'A real MX host and whether the policy covers it.',
  fields: (t) => ({
    host: t.exposeString('host'),
    matchesPolicy: t.exposeBoolean('matchesPolicy', { nullable: true }),
  }),
});
export const TlsRptSummary = builder.objectRef<NonNullable<MtaSts['tlsRpt']>>('TlsRptSummary').implement({
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
    domainUnicode: t.exposeString('domainUnicode', { nullable: true, extensions: absentWhenNull() }),
    record: t.exposeString('record', { nullable: true }),
    recordId: t.exposeString('recordId', { nullable: true }),
    policyUrl: t.exposeString('policyUrl'),
    policy: t.expose('policy', { type: MtaStsPolicy, nullable: true }),
    policyError: t.exposeString('policyError', { nullable: true }),
    mxHosts: t.expose('mxHosts', { type: [MtaStsMxHost] }),
    tlsRpt: t.expose('tlsRpt', { type: TlsRptSummary, nullable: true }),
  }),
});
