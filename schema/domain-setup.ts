import { builder } from './builder.js';
import { checkDomainSetup, getDomainSetup, getDomainSetupZone } from '../resolvers/domains/setup/get-domain-setup.js';
import {
  BUILD_STATES,
  RECORD_PURPOSES,
  RECORD_STATUSES,
  RECORD_TYPES,
  type DomainSetup,
  type WantedRecordWithStatus,
} from '../resolvers/domains/setup/setup-record.js';

export const BuildStateEnum = builder.enumType('BuildState', {
  description:
    'queued → building → waiting_for_dns → live; needs_attention (with a reason and the failing records). live only when every required record is verified and the provider reports the mailboxes created.',
  values: BUILD_STATES,
});

const RecordStatusEnum = builder.enumType('SetupRecordStatus', {
  description:
    'verified: published as wanted. missing: nothing there. wrong: something else is there (see found). conflict: what is there fights the record (two SPF records, another provider’s MX, SPF past 10 lookups). unknown: the lookup failed; checked again. delegated: the name is an alias (CNAME) of a record hosted elsewhere (a hosted DMARC policy), changed there and never overwritten.',
  values: RECORD_STATUSES,
});

const RecordPurposeEnum = builder.enumType('SetupRecordPurpose', {
  description: 'What the record is for: mail hosts, SPF, DKIM, DMARC, web forwarding, proof of control, TLS reports (optional).',
  values: RECORD_PURPOSES,
});

const RecordTypeEnum = builder.enumType('SetupRecordType', { values: RECORD_TYPES });

const SetupRecordRef = builder.objectRef<WantedRecordWithStatus>('SetupRecord').implement({
  description: 'One record the domain needs, and what our own checks found for it.',
  fields: (t) => ({
    purpose: t.field({ type: RecordPurposeEnum, resolve: (r) => r.purpose }),
    type: t.field({ type: RecordTypeEnum, resolve: (r) => r.type }),
    name: t.exposeString('name', { description: 'Fully qualified, without the trailing dot.' }),
    value: t.exposeString('value', { description: 'MX: the host; TXT: the whole text (split into 255-byte strings only in a zone file); A: the address.' }),
    ttl: t.exposeInt('ttl'),
    priority: t.int({ nullable: true, description: 'MX only.', resolve: (r) => r.priority ?? null }),
    required: t.exposeBoolean('required', { description: 'Whether live waits for it.' }),
    status: t.field({ type: RecordStatusEnum, resolve: (r) => r.status }),
    found: t.exposeStringList('found', { description: 'What the DNS holds there (MX as "priority host"); [] when nothing.' }),
    detail: t.exposeString('detail', { description: 'What was found and what to change.' }),
  }),
});

const DomainSetupRef = builder.objectRef<DomainSetup>('DomainSetup').implement({
  description: "A domain's setup: the records it needs, each with its status, and its build state.",
  fields: (t) => ({
    domain: t.exposeString('domain'),
    buildState: t.field({ type: BuildStateEnum, resolve: (s) => s.buildState }),
    ready: t.exposeBoolean('ready', { description: 'Every required record is verified.' }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why the domain is not live, or needs attention; null when live.' }),
    checkedAt: t.exposeString('checkedAt', { description: 'When these lookups ran (now: nothing is cached).' }),
    readFrom: t.exposeString('readFrom', {
      description: "Where the records were read: the zone's own name servers (not a cache), or the resolver when they could not be found.",
    }),
    cachesMayHoldUntil: t.exposeString('cachesMayHoldUntil', {
      nullable: true,
      description:
        'When resolvers may still give the old answer for records the zone already serves changed (their remaining TTL, or the negative TTL); null when they agree.',
    }),
    cacheNote: t.exposeString('cacheNote', { nullable: true, description: 'The same in a sentence naming the records; null with it.' }),
    records: t.field({ type: [SetupRecordRef], resolve: (s) => s.records }),
  }),
});

builder.queryField('domainSetup', (t) =>
  t.field({
    type: DomainSetupRef,
    description: 'The records a domain on your orders needs (MX, SPF, DKIM, DMARC, forwarding, proof of control), each with its status, looked up now.',
    authScopes: { read: true },
    args: { domain: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getDomainSetup(args.domain, ctx),
  }),
);

builder.queryField('domainSetupZone', (t) =>
  t.string({
    description: "The domain's records as a BIND zone-file snippet.",
    authScopes: { read: true },
    args: { domain: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getDomainSetupZone(args.domain, ctx),
  }),
);

builder.mutationField('checkDomainSetup', (t) =>
  t.field({
    type: DomainSetupRef,
    description: 'Checks the setup now and records the state it justifies (a waiting domain whose records appeared goes live), then answers as domainSetup.',
    authScopes: { read: true },
    args: { domain: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => checkDomainSetup(args.domain, ctx),
  }),
);
