import { builder } from '../builder.js';
import type { checkSpf } from '../../resolvers/checks/spf/check-spf.js';
import type { SpfExpansionStop as SpfExpansionStopShape, SpfTermNode } from '../../resolvers/checks/spf/spf-tree-types.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { absentWhenNull, camelToSnake } from '../wire-field-extension.js';

// check-spf: its answer, each object over the part of the resolver's return type it mirrors.
type Spf = AnswerOf<typeof checkSpf>;

/** The record tree as documented: every key in snake_case (voidLookups → void_lookups), in the order the check wrote them. */
function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [camelToSnake(key), snakeCaseKeys(v)]));
}

export const SpfResult = builder.enumType('SpfResult', {
  description: 'An RFC 7208 check_host() result.',
  values: ['pass', 'fail', 'softfail', 'neutral', 'none', 'permerror', 'temperror'] as const,
});
// The check's record tree (resolvers/checks/spf/spf-tree-types.ts) with its keys in snake_case on every
// door, /graphql too: the doors do not rename a scalar's value (builder.ts types it unknown).
builder.scalarType('SpfRecordTree', {
  description:
    'An included or redirected SPF record with its own terms, nested as deep as the record goes: ' +
    '{domain, outcome, record, lookups, void_lookups, errors, mechanisms: [term]} where each term has the fields of SpfTerm. ' +
    'A scalar because a GraphQL selection cannot follow a tree of unknown depth within the depth limit of 10.',
  serialize: snakeCaseKeys,
  parseValue: (value) => value,
});
export const SpfTerm = builder.objectRef<SpfTermNode>('SpfTerm').implement({
  description: 'One term of an SPF record, with the record it includes or redirects to.',
  fields: (t) => ({
    term: t.exposeString('term'),
    // String, not an enum: +, -, ~ and ? are not GraphQL names, so enum values would change on the wire.
    qualifier: t.exposeString('qualifier', { nullable: true, description: 'The qualifier as written: +, -, ~ or ?; null when the term has none.' }),
    mechanism: t.exposeString('mechanism'),
    value: t.exposeString('value', { nullable: true }),
    lookups: t.exposeInt('lookups'),
    evaluated: t.exposeBoolean('evaluated'),
    voidLookup: t.exposeBoolean('voidLookup'),
    pastLimit: t.exposeBoolean('pastLimit', {
      description: 'True after the point where receivers stop with permerror (see expansion_stopped).',
    }),
    errors: t.exposeStringList('errors'),
    children: t.expose('children', { type: 'SpfRecordTree', nullable: true, description: 'The included or redirected record, or null.' }),
  }),
});
export const SpfStopReason = builder.enumType('SpfStopReason', {
  description: 'Which RFC 7208 limit stopped the expansion.',
  values: ['dns_lookups', 'void_lookups', 'mx_names'] as const,
});
export const SpfExpansionStop = builder.objectRef<SpfExpansionStopShape>('SpfExpansionStop').implement({
  description: 'Where the audit stopped because receivers stop there with permerror.',
  fields: (t) => ({
    reason: t.expose('reason', { type: SpfStopReason }),
    term: t.exposeString('term'),
    domain: t.exposeString('domain'),
    depth: t.exposeInt('depth'),
    path: t.exposeStringList('path'),
  }),
});
export const SpfReceiverDivergence = builder.objectRef<Spf['divergence'][number]>('SpfReceiverDivergence').implement({
  description: 'Where widely used receivers reach a different outcome than RFC 7208.',
  fields: (t) => ({
    rule: t.exposeString('rule'),
    receivers: t.exposeStringList('receivers'),
    detail: t.exposeString('detail'),
    voidLookupCount: t.exposeInt('voidLookupCount'),
    valid: t.exposeBoolean('valid'),
    result: t.expose('result', {
      type: SpfResult,
      nullable: true,
      description: 'With ip: the result those receivers give that address.',
      extensions: absentWhenNull(),
    }),
  }),
});
export const SpfAnswer = builder.objectRef<Spf>('SpfAnswer').implement({
  description: 'check-spf: the record, lookup counts, the include tree; with ip, the check_host() result.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domainUnicode', {
      nullable: true,
      description: 'Present when the domain is internationalised.',
      extensions: absentWhenNull(),
    }),
    record: t.exposeString('record', { nullable: true }),
    valid: t.exposeBoolean('valid'),
    lookupCount: t.exposeInt('lookupCount', {
      description: 'DNS-querying terms across the whole tree (more than 10 breaks SPF).',
    }),
    voidLookupCount: t.exposeInt('voidLookupCount'),
    mechanisms: t.expose('mechanisms', { type: [SpfTerm] }),
    expansionStopped: t.expose('expansionStopped', { type: SpfExpansionStop, nullable: true }),
    divergence: t.expose('divergence', { type: [SpfReceiverDivergence] }),
    ip: t.exposeString('ip', { nullable: true, description: 'Only with ip.', extensions: absentWhenNull() }),
    sender: t.exposeString('sender', { nullable: true, description: 'Only with ip.', extensions: absentWhenNull() }),
    helo: t.exposeString('helo', { nullable: true, description: 'Only with ip.', extensions: absentWhenNull() }),
    result: t.expose('result', { type: SpfResult, nullable: true, description: 'Only with ip.', extensions: absentWhenNull() }),
    matchedMechanism: t.exposeString('matchedMechanism', {
      nullable: true,
      description: 'Only with ip: the deciding term, or null.',
      extensions: absentWhenNull('ip'),
    }),
    explanation: t.exposeString('explanation', {
      nullable: true,
      description: 'Only with ip: the exp= text on a fail, or null.',
      extensions: absentWhenNull('ip'),
    }),
  }),
});
