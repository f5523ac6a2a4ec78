import { builder } from '../builder.js';
import type { checkProviderDomain } from '../../resolvers/checks/provider-domain/check-provider-domain.js';
import { CheckAnswer, type AnswerOf } from './common.js';

// check-provider-domain: its answer, each object over the part of the resolver's return type it mirrors.
type ProviderDomain = AnswerOf<typeof checkProviderDomain>;

export const EvidenceKind = builder.enumType('EvidenceKind', {
  description: 'A kind of tenancy evidence.',
  values: ['google_mx', 'google_site_verification', 'google_spf_include', 'google_dkim', 'sign_in_discovery'] as const,
});
export const TenancyProvider = builder.enumType('TenancyProvider', {
  description: 'The mail provider whose tenancy is assessed.',
  values: ['google_workspace'] as const,
});
export const Confidence = builder.enumType('Confidence', { description: 'How sure the verdict is.', values: ['high', 'medium', 'low'] as const });
export const TenancyEvidence = builder.objectRef<ProviderDomain['evidence'][number]>('TenancyEvidence').implement({
  description: 'One piece of evidence.',
  fields: (t) => ({
    kind: t.expose('kind', { type: EvidenceKind }),
    found: t.exposeBoolean('found', { nullable: true }),
    detail: t.exposeString('detail'),
  }),
});
export const ProviderDomainAnswer = builder.objectRef<ProviderDomain>('ProviderDomainAnswer').implement({
  description: 'check-provider-domain: Google Workspace tenancy evidence.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true }),
    provider: t.expose('provider', { type: TenancyProvider }),
    attached: t.exposeBoolean('attached', { nullable: true }),
    confidence: t.expose('confidence', { type: Confidence }),
    evidence: t.expose('evidence', { type: [TenancyEvidence] }),
    note: t.exposeString('note'),
  }),
});
