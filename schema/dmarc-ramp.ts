import { builder } from './builder.js';
import { DnsChangeRef } from './apply-domain-setup.js';
import { RAMP_STEPS, isRampStep } from '../resolvers/dmarc-ramp/ramp-steps.js';
import type { FailingSource, RampFigures } from '../resolvers/dmarc-ramp/ramp-readiness.js';
import { getDmarcRamp, type DmarcRamp, type RampRevertOffer, type RampTimelineEntry } from '../resolvers/dmarc-ramp/get-dmarc-ramp.js';
import { advanceDmarcRamp, type AdvancedDmarcRamp } from '../resolvers/dmarc-ramp/advance-dmarc-ramp.js';
import { getDmarcRampSettings, setDmarcRampSettings, type DmarcRampSettings } from '../resolvers/dmarc-ramp/ramp-settings.js';

const RAMP_STEP_KINDS = ['advanced', 'reverted'] as const;

const DmarcRampStepEnum = builder.enumType('DmarcRampStep', {
  description:
    'none: p=none (monitoring); quarantine_25: p=quarantine; pct=25; quarantine: p=quarantine; reject: p=reject. The ramp climbs one step at a time (docs/dmarc-ramp.md).',
  values: RAMP_STEPS,
});

const DmarcRampStepKindEnum = builder.enumType('DmarcRampStepKind', {
  description: 'advanced: a step published; reverted: a step undone through the journal.',
  values: RAMP_STEP_KINDS,
});

const step = (value: string): (typeof RAMP_STEPS)[number] => (isRampStep(value) ? value : 'none');

const RampWindowRef = builder.objectRef<RampFigures & { readonly passRate: number | null }>('DmarcRampWindow').implement({
  description: 'The authenticated aggregate reports readiness is judged on: since the current step was taken, at most 30 days back.',
  fields: (t) => ({
    from: t.exposeString('from', { description: 'First day (YYYY-MM-DD).' }),
    to: t.exposeString('to', { description: 'Last day (today, UTC).' }),
    days: t.exposeInt('days', { description: 'Days with at least one report.' }),
    messages: t.exposeInt('messages'),
    passed: t.exposeInt('passed', { description: 'Messages passing DMARC (aligned DKIM or SPF).' }),
    passRate: t.exposeFloat('passRate', { nullable: true, description: 'Percent, one decimal; null without messages.' }),
  }),
});

const FailingSourceRef = builder.objectRef<FailingSource>('DmarcRampFailingSource').implement({
  description: 'An address whose mail as the domain failed DMARC in the window, identified as far as the DNS allows.',
  fields: (t) => ({
    sourceIp: t.exposeString('sourceIp'),
    ptr: t.exposeString('ptr', { nullable: true, description: 'Its PTR name, only when forward-confirmed (the name leads back to the address).' }),
    service: t.exposeString('service', { nullable: true, description: 'The sending service the name belongs to (Google Workspace, SendGrid...), or null.' }),
    failed: t.exposeInt('failed', { description: 'Messages from it that failed DMARC.' }),
    ownSender: t.exposeBoolean('ownSender', {
      nullable: true,
      description: "One of your own senders: your SPF authorizes it, or its service's include is in your SPF. null: your SPF could not be evaluated.",
    }),
  }),
});

const RevertOfferRef = builder.objectRef<RampRevertOffer>('DmarcRampRevertOffer').implement({
  description: 'The last advance hurts mail: reverting its journal entry undoes it.',
  fields: (t) => ({
    stepId: t.exposeInt('stepId'),
    applyId: t.exposeInt('applyId', { description: 'Revert it with POST /v1/domains/{domain}/setup/applies/{apply_id}/revert.' }),
    reason: t.exposeString('reason'),
  }),
});

const TimelineEntryRef = builder.objectRef<RampTimelineEntry>('DmarcRampTimelineEntry').implement({
  description: 'One step taken or undone.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    kind: t.field({ type: DmarcRampStepKindEnum, resolve: (e) => e.kind }),
    fromStep: t.field({ type: DmarcRampStepEnum, resolve: (e) => step(e.fromStep) }),
    toStep: t.field({ type: DmarcRampStepEnum, resolve: (e) => step(e.toStep) }),
    recordBefore: t.exposeString('recordBefore'),
    recordAfter: t.exposeString('recordAfter'),
    applyId: t.exposeInt('applyId', { description: 'The journal entry of the publish, or of the revert.' }),
    automatic: t.exposeBoolean('automatic', { description: 'Taken by the automatic ramp (the account setting), not by a caller.' }),
    passRate: t.exposeFloat('passRate', { nullable: true }),
    reason: t.exposeString('reason'),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

const DmarcRampRef = builder.objectRef<DmarcRamp>('DmarcRamp').implement({
  description: "A domain's way to DMARC enforcement, from its authenticated aggregate reports (docs/dmarc-ramp.md).",
  fields: (t) => ({
    domain: t.exposeString('domain'),
    step: t.field({
      type: DmarcRampStepEnum,
      nullable: true,
      description: 'The step the published record stands on; null when it could not be read.',
      resolve: (r) => r.step,
    }),
    record: t.exposeString('record', { nullable: true, description: 'The DMARC record read from the zone; null when none is published or the read failed.' }),
    readFrom: t.exposeString('readFrom'),
    nextStep: t.field({
      type: DmarcRampStepEnum,
      nullable: true,
      description: 'null at the top, or when the record could not be read.',
      resolve: (r) => r.nextStep,
    }),
    ready: t.exposeBoolean('ready', { description: 'The next step is safe to publish now.' }),
    blockedBy: t.exposeString('blockedBy', { nullable: true, description: 'What stands in the way, in a sentence; null when ready or at the top.' }),
    window: t.field({ type: RampWindowRef, resolve: (r) => r.window }),
    failingSources: t.field({ type: [FailingSourceRef], description: 'Most failed messages first.', resolve: (r) => r.failingSources }),
    autoAdvance: t.exposeBoolean('autoAdvance', { description: 'Your account lets the ramp advance and undo on its own.' }),
    connectionId: t.exposeInt('connectionId', {
      nullable: true,
      description: "The DNS connection the automatic ramp publishes through: the one of the domain's latest apply.",
    }),
    revertOffered: t.field({ type: RevertOfferRef, nullable: true, resolve: (r) => r.revertOffered }),
    timeline: t.field({ type: [TimelineEntryRef], description: 'Oldest first.', resolve: (r) => r.timeline }),
  }),
});

const AdvancedRampRef = builder.objectRef<AdvancedDmarcRamp>('AdvancedDmarcRamp').implement({
  description: 'What advancing the ramp published, or in a dry run would publish.',
  fields: (t) => ({
    domain: t.exposeString('domain'),
    connectionId: t.exposeInt('connectionId'),
    dryRun: t.exposeBoolean('dryRun'),
    fromStep: t.field({ type: DmarcRampStepEnum, resolve: (a) => a.fromStep }),
    toStep: t.field({ type: DmarcRampStepEnum, resolve: (a) => a.toStep }),
    recordBefore: t.exposeString('recordBefore'),
    recordAfter: t.exposeString('recordAfter', { description: 'The same record with p= (and pct=) raised; every other tag and report address kept.' }),
    changes: t.field({ type: [DnsChangeRef], resolve: (a) => a.changes }),
    applyId: t.exposeInt('applyId', { nullable: true, description: 'The journal entry; revert it to undo the step. null for a dry run.' }),
    stepId: t.exposeInt('stepId', { nullable: true }),
  }),
});

const DmarcRampSettingsRef = builder.objectRef<DmarcRampSettings>('DmarcRampSettings').implement({
  fields: (t) => ({
    autoAdvance: t.exposeBoolean('autoAdvance', {
      description: 'The ramp advances each proved domain with a DNS connection when ready, and undoes an advance that hurts mail, once a day.',
    }),
  }),
});

builder.queryField('dmarcRamp', (t) =>
  t.field({
    type: DmarcRampRef,
    description: "A domain's DMARC ramp: the step it stands on, whether the next is safe and what blocks it, the failing sources, the timeline.",
    authScopes: { read: true },
    args: { domain: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getDmarcRamp(args.domain, ctx),
  }),
);

builder.mutationField('advanceDmarcRamp', (t) =>
  t.field({
    type: AdvancedRampRef,
    description: "Publishes the ramp's next step through one of your DNS connections, only when ready (dryRun: only shows the change).",
    authScopes: { write: true },
    args: { domain: t.arg.string({ required: true }), connectionId: t.arg.int({ required: true }), dryRun: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => advanceDmarcRamp(args.domain, args.connectionId, args.dryRun, ctx),
  }),
);

builder.queryField('dmarcRampSettings', (t) =>
  t.field({ type: DmarcRampSettingsRef, authScopes: { read: true }, resolve: (_root, _args, ctx) => getDmarcRampSettings(ctx) }),
);

builder.mutationField('setDmarcRampSettings', (t) =>
  t.field({
    type: DmarcRampSettingsRef,
    description: "Turns your account's automatic DMARC ramp on or off.",
    authScopes: { write: true },
    args: { autoAdvance: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => setDmarcRampSettings(args.autoAdvance, ctx),
  }),
);
