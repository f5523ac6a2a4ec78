import { builder } from '../builder.js';
import type { segmentEsp } from '../../resolvers/checks/segment-esp/segment-esp.js';
import { CheckAnswer, type AnswerOf } from './common.js';

// segment-esp: its answer, each object over the part of the resolver's return type it mirrors.
type Esp = AnswerOf<typeof segmentEsp>;

const SEGMENTS = ['google', 'microsoft', 'security_gateway', 'other', 'unresolved'] as const;
export const EspSegment = builder.enumType('EspSegment', { description: 'A mail provider segment.', values: SEGMENTS });
export const GatewayProvider = builder.enumType('GatewayProvider', {
  description: 'The provider found behind a security gateway.',
  values: ['google', 'microsoft'] as const,
});
export const EspDomainResult = builder.objectRef<Esp['results'][number]>('EspDomainResult').implement({
  description: "One domain's segment.",
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true }),
    segment: t.expose('segment', { type: EspSegment }),
    provider: t.exposeString('provider', { nullable: true }),
    gateway: t.exposeString('gateway', { nullable: true }),
    providerBehindGateway: t.expose('providerBehindGateway', { type: GatewayProvider, nullable: true }),
    mxHosts: t.exposeStringList('mxHosts'),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});
export const EspCounts = builder.objectRef<Esp['counts']>('EspCounts').implement({
  description: 'Domains per segment.',
  fields: (t) => ({
    google: t.exposeInt('google'),
    microsoft: t.exposeInt('microsoft'),
    securityGateway: t.exposeInt('securityGateway'),
    other: t.exposeInt('other'),
    unresolved: t.exposeInt('unresolved'),
  }),
});
export const EspSegments = builder.objectRef<Esp['segments']>('EspSegments').implement({
  description: 'The domains of each segment.',
  fields: (t) => ({
    google: t.exposeStringList('google'),
    microsoft: t.exposeStringList('microsoft'),
    securityGateway: t.exposeStringList('securityGateway'),
    other: t.exposeStringList('other'),
    unresolved: t.exposeStringList('unresolved'),
  }),
});
export const SegmentEspAnswer = builder.objectRef<Esp>('SegmentEspAnswer').implement({
  description: 'segment-esp: domains split by mail provider.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    counts: t.expose('counts', { type: EspCounts }),
    segments: t.expose('segments', { type: EspSegments }),
    results: t.expose('results', { type: [EspDomainResult] }),
  }),
});
