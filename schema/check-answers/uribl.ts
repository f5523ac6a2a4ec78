import { builder } from '../builder.js';
import type { checkUribl } from '../../resolvers/checks/uribl/check-uribl.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { DnsblCode } from './blacklist.js';
import { wireName } from './wire-extensions.js';

// check-uribl: its answer, each object over the part of the resolver's return type it mirrors.
type Uribl = AnswerOf<typeof checkUribl>;

export const UriblListResult = builder.objectRef<Uribl['results'][number]['lists'][number]>('UriblListResult').implement({
  description: "One URI list's verdict.",
  fields: (t) => ({
    list: t.exposeString('list'),
    listId: t.exposeString('list_id', { extensions: wireName('list_id') }),
    zone: t.exposeString('zone'),
    listed: t.exposeBoolean('listed', { nullable: true }),
    codes: t.expose('codes', { type: [DnsblCode] }),
    removalUrl: t.exposeString('removal_url', { extensions: wireName('removal_url') }),
    reason: t.exposeString('reason', { nullable: true }),
    alive: t.exposeBoolean('alive', { nullable: true }),
  }),
});
export const UriblDomainResult = builder.objectRef<Uribl['results'][number]>('UriblDomainResult').implement({
  description: "One domain's URI list verdicts.",
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domain_unicode', { nullable: true, extensions: wireName('domain_unicode') }),
    queried: t.exposeString('queried', { nullable: true }),
    listed: t.exposeBoolean('listed', { nullable: true }),
    lists: t.expose('lists', { type: [UriblListResult] }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});
export const UriblAnswer = builder.objectRef<Uribl>('UriblAnswer').implement({
  description: 'check-uribl: listing per domain.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    results: t.expose('results', { type: [UriblDomainResult] }),
    listedCount: t.exposeInt('listed_count', { extensions: wireName('listed_count') }),
  }),
});
