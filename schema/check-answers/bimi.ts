import { builder } from '../builder.js';
import type { checkBimi } from '../../resolvers/checks/bimi/check-bimi.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { DmarcPolicy } from './dmarc.js';
import { absentWhenNull } from '../wire-field-extension.js';

// check-bimi: its answer, each object over the part of the resolver's return type it mirrors.
type Bimi = AnswerOf<typeof checkBimi>;

export const MarkType = builder.enumType('MarkType', { description: 'Verified or common mark certificate.', values: ['VMC', 'CMC'] as const });
export const BimiDmarcDetail = builder.objectRef<Bimi['dmarcDetail']>('BimiDmarcDetail').implement({
  description: 'The DMARC records BIMI relies on and what must change for enforcement.',
  fields: (t) => ({
    domainRecord: t.exposeString('domainRecord', { nullable: true }),
    organizationalDomain: t.exposeString('organizationalDomain'),
    organizationalRecord: t.exposeString('organizationalRecord', { nullable: true }),
    policy: t.expose('policy', { type: DmarcPolicy, nullable: true }),
    subdomainPolicy: t.expose('subdomainPolicy', { type: DmarcPolicy, nullable: true }),
    pct: t.exposeInt('pct', { nullable: true }),
    changes: t.exposeStringList('changes'),
  }),
});
export const BimiLogo = builder.objectRef<NonNullable<Bimi['logo']>>('BimiLogo').implement({
  description: 'The SVG logo as fetched and validated.',
  fields: (t) => ({
    fetched: t.exposeBoolean('fetched'),
    sizeBytes: t.exposeInt('sizeBytes', { nullable: true }),
    svgTinyPsValid: t.exposeBoolean('svgTinyPsValid', { nullable: true }),
    problems: t.exposeStringList('problems'),
  }),
});
export const MarkCertificate = builder.objectRef<NonNullable<Bimi['certificate']>>('MarkCertificate').implement({
  description: 'The mark certificate as fetched and checked.',
  fields: (t) => ({
    fetched: t.exposeBoolean('fetched'),
    subject: t.exposeString('subject', { nullable: true }),
    issuer: t.exposeString('issuer', { nullable: true }),
    validFrom: t.exposeString('validFrom', { nullable: true }),
    validTo: t.exposeString('validTo', { nullable: true }),
    expired: t.exposeBoolean('expired', { nullable: true }),
    coversDomain: t.exposeBoolean('coversDomain', { nullable: true }),
    names: t.exposeStringList('names'),
    markType: t.expose('markType', { type: MarkType, nullable: true }),
    logoEmbedded: t.exposeBoolean('logoEmbedded'),
    logoMatches: t.exposeBoolean('logoMatches', { nullable: true }),
    chainTrusted: t.exposeBoolean('chainTrusted', { nullable: true }),
    trustAnchor: t.exposeString('trustAnchor', { nullable: true }),
    problems: t.exposeStringList('problems'),
  }),
});
export const BimiAnswer = builder.objectRef<Bimi>('BimiAnswer').implement({
  description: 'check-bimi: the record, logo, certificate and DMARC enforcement.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true, extensions: absentWhenNull() }),
    selector: t.exposeString('selector'),
    recordDomain: t.exposeString('recordDomain', { nullable: true }),
    record: t.exposeString('record', { nullable: true }),
    valid: t.exposeBoolean('valid'),
    declined: t.exposeBoolean('declined'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    authorityUrl: t.exposeString('authorityUrl', { nullable: true }),
    dmarcEnforced: t.exposeBoolean('dmarcEnforced', { nullable: true }),
    dmarcDetail: t.expose('dmarcDetail', { type: BimiDmarcDetail }),
    logo: t.expose('logo', { type: BimiLogo, nullable: true }),
    certificate: t.expose('certificate', { type: MarkCertificate, nullable: true }),
  }),
});
