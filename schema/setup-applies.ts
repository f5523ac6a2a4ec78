import { builder } from './builder.js';
import { BuildStateEnum } from './domain-setup.js';
import { PublishedRecordRef } from './apply-domain-setup.js';
import { CONNECTION_ARGS_TEXT, PAGE_ON_THE_WIRE, connectionOf } from './connection.js';
import { listDomainSetupApplies, type SetupApply, type SetupApplyChange } from '../resolvers/domains/publishing/list-setup-applies.js';
import { revertSetupApply, type RevertedApply } from '../resolvers/domains/publishing/revert-apply.js';

const SetupApplyKindEnum = builder.enumType('SetupApplyKind', {
  description: 'apply: a publish of the setup. revert: the undoing of one (revertsApplyId).',
  values: ['apply', 'revert'] as const,
});

const SetupApplyChangeRef = builder.objectRef<SetupApplyChange>('SetupApplyChange').implement({
  description: 'One RRset (a name and type) a publish or revert wrote: every record it held just before the write and just after.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Fully qualified, without the trailing dot.' }),
    type: t.exposeString('type'),
    before: t.field({
      type: [PublishedRecordRef],
      description: 'The RRset as read before the write, TTLs included; [] when there was none.',
      resolve: (c) => [...c.before],
    }),
    after: t.field({ type: [PublishedRecordRef], description: 'The RRset as read after the write.', resolve: (c) => [...c.after] }),
    replaced: t.field({
      type: [PublishedRecordRef],
      description: 'Records of `before` the write removed (or gave another TTL).',
      resolve: (c) => [...c.replaced],
    }),
    added: t.field({ type: [PublishedRecordRef], description: 'Records of `after` the write added.', resolve: (c) => [...c.added] }),
  }),
});

const SetupApplyRef = builder.objectRef<SetupApply>('SetupApply').implement({
  description: "One entry of a domain's publishing journal: an apply that wrote records, or the revert of one.",
  fields: (t) => ({
    applyId: t.exposeInt('applyId'),
    kind: t.field({ type: SetupApplyKindEnum, resolve: (a) => a.kind }),
    revertsApplyId: t.exposeInt('revertsApplyId', { nullable: true, description: 'For a revert: the apply it undid.' }),
    appliedAt: t.expose('appliedAt', { type: 'DateTime' }),
    connectionId: t.exposeInt('connectionId', { description: 'The DNS connection it wrote through.' }),
    changes: t.field({ type: [SetupApplyChangeRef], resolve: (a) => [...a.changes] }),
    revertedAt: t.expose('revertedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the apply was reverted; null while it stands (and for a revert).',
    }),
  }),
});

const SetupApplyConnectionRef = connectionOf('SetupApply', SetupApplyRef, "A page of a domain's publishing journal, newest first.", 'data');

builder.queryField('domainSetupApplies', (t) =>
  t.field({
    type: SetupApplyConnectionRef,
    extensions: PAGE_ON_THE_WIRE,
    description: `The journal of a domain's publishes (applies that wrote records, and reverts), newest first, a page at a time: ${CONNECTION_ARGS_TEXT} (an applyId).`,
    authScopes: { read: true },
    args: { domain: t.arg.string({ required: true }), first: t.arg.int({ required: false }), after: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => listDomainSetupApplies(args.domain, args, ctx),
  }),
);

const RevertedApplyRef = builder.objectRef<RevertedApply>('RevertedDomainSetupApply').implement({
  description: 'What reverting an apply changed, or (dryRun) would change.',
  fields: (t) => ({
    applyId: t.exposeInt('applyId', { description: 'The apply reverted.' }),
    domain: t.exposeString('domain'),
    connectionId: t.exposeInt('connectionId'),
    dryRun: t.exposeBoolean('dryRun', { description: 'True: nothing was changed; the changes are the ones a revert would make.' }),
    changes: t.field({
      type: [SetupApplyChangeRef],
      description: 'Each RRset: `before` what the zone holds now (what the apply left), `after` what the revert puts (or put) back.',
      resolve: (r) => [...r.changes],
    }),
    revertApplyId: t.exposeInt('revertApplyId', { nullable: true, description: "The revert's own journal entry; null for a dry run." }),
    revertedAt: t.expose('revertedAt', { type: 'DateTime', nullable: true, description: 'null for a dry run.' }),
    buildState: t.field({
      type: BuildStateEnum,
      nullable: true,
      description: "The domain's build state, checked again after the revert; null for a dry run.",
      resolve: (r) => r.buildState,
    }),
    ready: t.exposeBoolean('ready', { nullable: true, description: 'Every required record verified after the revert; null for a dry run.' }),
  }),
});

builder.mutationField('revertDomainSetupApply', (t) =>
  t.field({
    type: RevertedApplyRef,
    description:
      'Puts back exactly the RRsets an apply replaced (TTLs included) and removes what it added, through the connection it used (dryRun: only shows the changes). Refused with a conflict listing the RRsets the zone changed since the apply; an apply is reverted once.',
    authScopes: { write: true },
    args: {
      domain: t.arg.string({ required: true }),
      applyId: t.arg.int({ required: true }),
      dryRun: t.arg.boolean({ required: true }),
    },
    resolve: (_root, args, ctx) => revertSetupApply(args.domain, args.applyId, args.dryRun, ctx),
  }),
);
