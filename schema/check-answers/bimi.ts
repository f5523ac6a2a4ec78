import { builder } from '../builder.js';
import type { checkBimi } from '../../resolvers/checks/bimi/check-bimi.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { DmarcPolicy } from './dmarc.js';
import { wireName } from './wire-extensions.js';
import { absentWhenNull } from '../wire-field-extension.js';

// check-bimi: its answer, each object over the part of the resolver's return type it mirrors.
type Bimi = AnswerOf<typeof checkBimi>;

export const MarkType = builder.enumType('MarkType', { description: 'Verified or common mark certificate.', values: ['VMC', 'CMC'] as const });
export const BimiDmarcDetail = builder.objectRef<Bimi['dmarc_detail']>('BimiDmarcDetail').implement({
  description: 'The DMARC records BIMI relies on and what must change for enforcement.',
  fields: (t) => ({
    domainRecord: t.exposeString('domain_record', { nullable: true, extensions: wireName('domain_record') }),
    organizationalDomain: t.exposeString('organizational_domain', { extensions: wireName('organizational_domain') }),
    organizationalRecord: t.exposeString('organizational_record', { nullable: true, extensions: wireName('organizational_record') }),
    policy: t.expose('policy', { type: DmarcPolicy, nullable: true }),
    subdomainPolicy: t.expose('subdomain_policy', { type: DmarcPolicy, nullable: true, extensions: wireName('subdomain_policy') }),
    pct: t.exposeInt('pct', { nullable: true }),
    changes: t.exposeStringList('changes'),
  }),
});
export const BimiLogo = builder.objectRef<NonNullable<Bimi['logo']>>('BimiLogo').implement({
  description: 'The SVG logo as fetched and validated.',
  fields: (t) => ({
    fetched: t.exposeBoolean('fetched'),
    sizeBytes: t.exposeInt('size_bytes', { nullable: true, extensions: wireName('size_bytes') }),
    svgTinyPsValid: t.exposeBoolean('svg_tiny_ps_valid', { nullable: true, extensions: wireName('svg_tiny_ps_valid') }),
    problems: t.exposeStringList('problems'),
  }),
});
export const MarkCertificate = builder.objectRef<NonNullable<Bimi['certificate']>>('MarkCertificate').implement({
  description: 'The mark certificate as fetched and checked.',
  fields: (t) => ({
    fetched: t.exposeBoolean('fetched'),
    subject: t.exposeString('subject', { nullable: true }),
    issuer: t.exposeString('issuer', { nullable: true }),
    validFrom: t.exposeString('valid_from', { nullable: true, extensions: wireName('valid_from') }),
    validTo: t.exposeString('valid_to', { nullable: true, extensions: wireName('valid_to') }),
    expired: t.exposeBoolean('expired', { nullable: true }),
    coversDomain: t.exposeBoolean('covers_domain', { nullable: true, extensions: wireName('covers_domain') }),
    names: t.exposeStringList('names'),
    markType: t.expose('mark_type', { type: MarkType, nullable: true, extensions: wireName('mark_type') }),
    logoEmbedded: t.exposeBoolean('logo_embedded', { extensions: wireName('logo_embedded') }),
    logoMatches: t.exposeBoolean('logo_matches', { nullable: true, extensions: wireName('logo_matches') }),
    chainTrusted: t.exposeBoolean('chain_trusted', { nullable: true, extensions: wireName('chain_trusted') }),
    trustAnchor: t.exposeString('trust_anchor', { nullable: true, extensions: wireName('trust_anchor') }),
    problems: t.exposeStringList('problems'),
  }),
});
export const BimiAnswer = builder.objectRef<Bimi>('BimiAnswer').implement({
  description: 'check-bimi: the record, logo, certificate and DMARC enforcement.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domain_unicode', { nullable: true, extensions: absentWhenNull() }),
    selector: t.exposeString('selector'),
    recordDomain: t.exposeString('record_domain', { nullable: true, extensions: wireName('record_domain') }),
    record: t.exposeString('record', { nullable: true }),
    valid: t.exposeBoolean('valid'),
    declined: t.exposeBoolean('declined'),
    logoUrl: t.exposeString('logo_url', { nullable: true, extensions: wireName('logo_url') }),
    authorityUrl: t.exposeString('authority_url', { nullable: true, extensions: wireName('authority_url') }),
    dmarcEnforced: t.exposeBoolean('dmarc_enforced', { nullable: true, extensions: wireName('dmarc_enforced') }),
    dmarcDetail: t.expose('dmarc_detail', { type: BimiDmarcDetail, extensions: wireName('dmarc_detail') }),
    logo: t.expose('logo', { type: BimiLogo, nullable: true }),
    certificate: t.expose('certificate', { type: MarkCertificate, nullable: true }),
  }),
});
