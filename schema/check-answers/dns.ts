import { builder } from '../builder.js';
import { CHECK_DNS_TYPES, type checkDns, type DnsRecordAnswer as DnsRecordShape } from '../../resolvers/checks/dns-records/check-dns.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { absentWhenNull } from '../wire-field-extension.js';

// check-dns: its answer, each object over the part of the resolver's return type it mirrors.
type Dns = AnswerOf<typeof checkDns>;

export const DnsType = builder.enumType('DnsType', { description: 'The record types check-dns reads (REST takes them in any case).', values: CHECK_DNS_TYPES });
export const DnsOutcome = builder.enumType('DnsOutcome', {
  description: 'records found; nodata: the name exists without this type; nxdomain; failed lookup.',
  values: ['records', 'nodata', 'nxdomain', 'failed'] as const,
});
export const MxRecordAnswer = builder.objectRef<Extract<DnsRecordShape, { readonly preference: number }>>('MxRecordAnswer').implement({
  description: 'An MX record.',
  fields: (t) => ({
    preference: t.exposeInt('preference'),
    exchange: t.exposeString('exchange'),
    ttl: t.exposeInt('ttl'),
  }),
});
export const TxtRecordAnswer = builder.objectRef<Extract<DnsRecordShape, { readonly strings: readonly string[] }>>('TxtRecordAnswer').implement({
  description: 'A TXT record: the strings joined, and as published.',
  fields: (t) => ({
    value: t.exposeString('value'),
    strings: t.exposeStringList('strings'),
    ttl: t.exposeInt('ttl'),
  }),
});
export const AddressRecordAnswer = builder.objectRef<Extract<DnsRecordShape, { readonly address: string }>>('AddressRecordAnswer').implement({
  description: 'An A or AAAA record.',
  fields: (t) => ({
    address: t.exposeString('address'),
    ttl: t.exposeInt('ttl'),
  }),
});
export const NameRecordAnswer = builder.objectRef<Extract<DnsRecordShape, { readonly target: string }>>('NameRecordAnswer').implement({
  description: 'A CNAME or NS record.',
  fields: (t) => ({
    target: t.exposeString('target'),
    ttl: t.exposeInt('ttl'),
  }),
});
export const SoaRecordAnswer = builder.objectRef<Extract<DnsRecordShape, { readonly mname: string }>>('SoaRecordAnswer').implement({
  description: 'An SOA record.',
  fields: (t) => ({
    mname: t.exposeString('mname'),
    rname: t.exposeString('rname'),
    serial: t.exposeFloat('serial', { description: 'A whole number up to 4294967295 (Float because GraphQL Int stops at 2^31).' }),
    refresh: t.exposeInt('refresh'),
    retry: t.exposeInt('retry'),
    expire: t.exposeInt('expire'),
    minimum: t.exposeInt('minimum'),
    ttl: t.exposeInt('ttl'),
  }),
});
export const CaaRecordAnswer = builder.objectRef<Extract<DnsRecordShape, { readonly flags: number }>>('CaaRecordAnswer').implement({
  description: 'A CAA record.',
  fields: (t) => ({
    flags: t.exposeInt('flags'),
    tag: t.exposeString('tag'),
    value: t.exposeString('value'),
    ttl: t.exposeInt('ttl'),
  }),
});
export const DnsRecordAnswer = builder.unionType('DnsRecordAnswer', {
  description: 'One record, shaped by its type.',
  types: [MxRecordAnswer, TxtRecordAnswer, AddressRecordAnswer, NameRecordAnswer, SoaRecordAnswer, CaaRecordAnswer],
  // Each record type has a key the others lack.
  resolveType: (record) =>
    'preference' in record
      ? MxRecordAnswer
      : 'strings' in record
        ? TxtRecordAnswer
        : 'address' in record
          ? AddressRecordAnswer
          : 'mname' in record
            ? SoaRecordAnswer
            : 'flags' in record
              ? CaaRecordAnswer
              : NameRecordAnswer,
});
export const DnsAnswer = builder.objectRef<Dns>('DnsAnswer').implement({
  description: 'check-dns: records of one type.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true, extensions: absentWhenNull() }),
    type: t.expose('type', { type: DnsType }),
    outcome: t.expose('outcome', { type: DnsOutcome }),
    records: t.expose('records', { type: [DnsRecordAnswer] }),
  }),
});
