import { builder } from '../builder.js';
import type { checkBlacklist } from '../../resolvers/checks/blacklist/check-blacklist.js';
import { CheckAnswer, type AnswerOf } from './common.js';

// check-blacklist (DnsblCode is shared with check-uribl): its answer, each object over the part of the resolver's return type it mirrors.
type Blacklist = AnswerOf<typeof checkBlacklist>;

export const BlacklistInputKind = builder.enumType('BlacklistInputKind', { description: 'What was checked.', values: ['ipv4', 'domain'] as const });
export const DnsblKind = builder.enumType('DnsblKind', { description: 'What a list lists.', values: ['ip', 'domain'] as const });
export const DnsblCode = builder.objectRef<Blacklist['lists'][number]['codes'][number]>('DnsblCode').implement({
  description: 'A return code of a list and its meaning.',
  fields: (t) => ({
    code: t.exposeString('code'),
    meaning: t.exposeString('meaning'),
  }),
});
export const DnsblListResult = builder.objectRef<Blacklist['lists'][number]>('DnsblListResult').implement({
  description: "One list's verdict.",
  fields: (t) => ({
    list: t.exposeString('list'),
    listId: t.exposeString('listId'),
    zone: t.exposeString('zone'),
    target: t.exposeString('target'),
    kind: t.expose('kind', { type: DnsblKind }),
    listed: t.exposeBoolean('listed', { nullable: true }),
    codes: t.expose('codes', { type: [DnsblCode] }),
    removalUrl: t.exposeString('removalUrl'),
    reason: t.exposeString('reason', { nullable: true }),
    alive: t.exposeBoolean('alive', { nullable: true, description: 'Whether the list answered its test entry; null when not probed.' }),
  }),
});
export const BlacklistChecked = builder.objectRef<Blacklist['checked']>('BlacklistChecked').implement({
  description: 'What was looked up.',
  fields: (t) => ({
    description: t.exposeString('description'),
    domain: t.exposeString('domain', { nullable: true }),
    mailHosts: t.exposeStringList('mailHosts'),
    addresses: t.exposeStringList('addresses'),
    domainLists: t.exposeInt('domainLists'),
    ipLists: t.exposeInt('ipLists'),
  }),
});
export const BlacklistAnswer = builder.objectRef<Blacklist>('BlacklistAnswer').implement({
  description: 'check-blacklist: listings of a domain (and its mail servers) or an IPv4 address.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    input: t.exposeString('input'),
    inputKind: t.expose('inputKind', { type: BlacklistInputKind }),
    domain: t.exposeString('domain', { nullable: true }),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true }),
    checked: t.expose('checked', { type: BlacklistChecked }),
    lists: t.expose('lists', { type: [DnsblListResult] }),
    listedCount: t.exposeInt('listedCount'),
    checkedCount: t.exposeInt('checkedCount'),
    unansweredCount: t.exposeInt('unansweredCount'),
  }),
});
