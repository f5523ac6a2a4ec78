import { builder } from '../builder.js';
import type { checkUribl } from '../../resolvers/checks/uribl/check-uribl.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { DnsblCode } from './blacklist.js';

// check-uribl: its answer, each object over the part of the resolver's return type it mirrors.
type Uribl = AnswerOf<typeof checkUribl>;

export const UriblListResult = builder.objectRef<Uribl['results'][number]['lists'][number]>('UriblListResult').implement({
  description: "One URI list's verdict.",
  fields: (t) => ({
    list: t.exposeString('list'),
    listId: t.exposeString('listId'),
    zone: t.exposeString('zone'),
    listed: t.exposeBoolean('listed', { nullable: true }),
    codes: t.expose('codes', { type: [DnsblCode] }),
    removalUrl: t.exposeString('removalUrl'),
    reason: t.exposeString('reason', { nullable: true }),
    alive: t.exposeBoolean('alive', { nullable: true }),
  }),
});
export const UriblDomainResult = builder.objectRef<Uribl['results'][number]>('UriblDomainResult').implement({
  description: "One domain's URI list verdicts.",
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true }),
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
    listedCount: t.exposeInt('listedCount'),
  }),
});
