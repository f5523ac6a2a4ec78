import { builder } from '../builder.js';
import type { checkBlacklist } from '../../resolvers/checks/blacklist/check-blacklist.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { wireName } from './wire-extensions.js';

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
    listId: t.exposeString('list_id', { extensions: wireName('list_id') }),
    zone: t.exposeString('zone'),
    target: t.exposeString('target'),
    kind: t.expose('kind', { type: DnsblKind }),
    listed: t.exposeBoolean('listed', { nullable: true }),
    codes: t.expose('codes', { type: [DnsblCode] }),
    removalUrl: t.exposeString('removal_url', { extensions: wireName('removal_url') }),
    reason: t.exposeString('reason', { nullable: true }),
    alive: t.exposeBoolean('alive', { nullable: true, description: 'Whether the list answered its test entry; null when not probed.' }),
  }),
});
export const BlacklistChecked = builder.objectRef<Blacklist['checked']>('BlacklistChecked').implement({
  description: 'What was looked up.',
  fields: (t) => ({
    description: t.exposeString('description'),
    domain: t.exposeString('domain', { nullable: true }),
    mailHosts: t.exposeStringList('mail_hosts', { extensions: wireName('mail_hosts') }),
    addresses: t.exposeStringList('addresses'),
    domainLists: t.exposeInt('domain_lists', { extensions: wireName('domain_lists') }),
    ipLists: t.exposeInt('ip_lists', { extensions: wireName('ip_lists') }),
  }),
});
export const BlacklistAnswer = builder.objectRef<Blacklist>('BlacklistAnswer').implement({
  description: 'check-blacklist: listings of a domain (and its mail servers) or an IPv4 address.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    input: t.exposeString('input'),
    inputKind: t.expose('input_kind', { type: BlacklistInputKind, extensions: wireName('input_kind') }),
    domain: t.exposeString('domain', { nullable: true }),
    domainUnicode: t.exposeString('domain_unicode', { nullable: true, extensions: wireName('domain_unicode') }),
    checked: t.expose('checked', { type: BlacklistChecked }),
    lists: t.expose('lists', { type: [DnsblListResult] }),
    listedCount: t.exposeInt('listed_count', { extensions: wireName('listed_count') }),
    checkedCount: t.exposeInt('checked_count', { extensions: wireName('checked_count') }),
    unansweredCount: t.exposeInt('unanswered_count', { extensions: wireName('unanswered_count') }),
  }),
});
