import { builder } from './builder.js';
import { BuildStateEnum } from './domain-setup.js';
import { applyDomainSetup, type AppliedSetup } from '../resolvers/domains/publishing/apply-domain-setup.js';
import type { DnsRecord, PlannedChange } from '../clients/dns-publishing/dns-publisher.js';

const CHANGE_ACTIONS = ['add', 'replace'] as const;

const ChangeActionEnum = builder.enumType('DnsChangeAction', {
  description: 'add: a record is added beside what is there. replace: the record takes the place of the records in `replaces`, removed in the same update.',
  values: CHANGE_ACTIONS,
});

export const PublishedRecordRef = builder.objectRef<DnsRecord>('PublishedRecord').implement({
  description: 'One resource record at the DNS provider.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'MX, TXT, A or CNAME.' }),
    name: t.exposeString('name', { description: 'Fully qualified, without the trailing dot.' }),
    value: t.exposeString('value', { description: 'MX: the host; TXT: the whole text; A: the address.' }),
    ttl: t.exposeInt('ttl'),
    priority: t.int({ nullable: true, description: 'MX only.', resolve: (r) => r.priority ?? null }),
  }),
});

export const DnsChangeRef = builder.objectRef<PlannedChange>('DnsChange').implement({
  description: 'One change a publish makes (or, in a dry run, would make).',
  fields: (t) => ({
    action: t.field({ type: ChangeActionEnum, resolve: (c) => c.action }),
    record: t.field({ type: PublishedRecordRef, resolve: (c) => c.record }),
    replaces: t.field({ type: [PublishedRecordRef], description: 'The records removed with a replace; [] for an add.', resolve: (c) => c.replaces ?? [] }),
  }),
});

const AppliedSetupRef = builder.objectRef<AppliedSetup>('AppliedDomainSetup').implement({
  description: "What publishing a domain's setup through a DNS connection changed, or would change.",
  fields: (t) => ({
    domain: t.exposeString('domain'),
    connectionId: t.exposeInt('connectionId'),
    dryRun: t.exposeBoolean('dryRun', { description: 'True: nothing was changed; the changes are the ones an apply would make.' }),
    changes: t.field({ type: [DnsChangeRef], description: '[] when every record is already served as wanted.', resolve: (a) => a.changes }),
    buildState: t.field({ type: BuildStateEnum, description: "The domain's build state, checked again after a real apply.", resolve: (a) => a.buildState }),
    ready: t.exposeBoolean('ready', { description: 'Every required record verified by our own checks.' }),
    applyId: t.exposeInt('applyId', {
      nullable: true,
      description: 'The journal entry of a real apply that wrote records (domainSetupApplies; revertDomainSetupApply puts them back); null otherwise.',
    }),
    cachesMayHoldUntil: t.exposeString('cachesMayHoldUntil', {
      nullable: true,
      description: "After an apply that changed records: until when resolvers may keep the old answer (the replaced records' TTL, or the zone's negative TTL).",
    }),
    cacheNote: t.exposeString('cacheNote', { nullable: true, description: 'The same in a sentence; null with it.' }),
  }),
});

builder.mutationField('applyDomainSetup', (t) =>
  t.field({
    type: AppliedSetupRef,
    description:
      "Publishes the domain's required records that are not verified through one of your DNS connections (dryRun: only shows the changes). The domain must be on your orders and verified as yours; applying twice changes nothing the second time.",
    authScopes: { write: true },
    args: {
      domain: t.arg.string({ required: true }),
      connectionId: t.arg.int({ required: true }),
      dryRun: t.arg.boolean({ required: true }),
    },
    resolve: (_root, args, ctx) => applyDomainSetup(args.domain, args.connectionId, args.dryRun, ctx),
  }),
);
