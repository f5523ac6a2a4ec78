import { builder } from './builder.js';
import { sameSpellings, type DoorEnum } from './door-enum-extension.js';
import type { IngestedFile } from '../resolvers/reports/ingest-reports.js';
import { REPORT_FILE_STATUSES, uploadReport, type ReportUpload } from '../resolvers/reports/upload-report.js';
import { listReports, listReportsPage, type ReportPage, type ReportSummary } from '../resolvers/reports/list-reports.js';
import { connectionOf } from './connection.js';
import { getDomainSources, type DomainSource, type DomainSources } from '../resolvers/reports/domain-sources.js';
import { getReportDays, type DomainReportDays, type ReportDay, type ReportDays } from '../resolvers/reports/report-days.js';
import { AnalyticsPeriodEnum } from './analytics.js';

const REPORT_KINDS = ['dmarc', 'tls'] as const;

export const ReportKindEnum = builder.enumType('ReportKind', {
  description: 'dmarc: a DMARC aggregate report (RFC 7489, RFC 9990); tls: a TLS-RPT report (RFC 8460).',
  values: Object.fromEntries(REPORT_KINDS.map((k) => [k, { value: k }])),
  extensions: { door: { wireValues: sameSpellings(REPORT_KINDS) } satisfies DoorEnum },
});

const ReportFileStatusEnum = builder.enumType('ReportFileStatus', {
  description:
    'stored; duplicate (the same organisation and report id was stored before: counted once); unknown_domain (not a domain of your account: dropped); refused (unreadable or unsafe: see code and detail).',
  values: Object.fromEntries(REPORT_FILE_STATUSES.map((s) => [s, { value: s }])),
  extensions: { door: { wireValues: sameSpellings(REPORT_FILE_STATUSES) } satisfies DoorEnum },
});

const ReportFileRef = builder.objectRef<IngestedFile>('ReportFile').implement({
  description: 'What became of one report file of an upload (a zip or a message may hold several).',
  fields: (t) => ({
    file: t.exposeString('file', { description: 'The file name (inside the zip or message, where it came from one).' }),
    status: t.field({ type: ReportFileStatusEnum, resolve: (f) => f.status }),
    kind: t.field({ type: ReportKindEnum, nullable: true, resolve: (f) => f.kind }),
    reportId: t.exposeString('reportId', { nullable: true, description: "The reporter's own report id." }),
    orgName: t.exposeString('orgName', { nullable: true, description: 'The reporting organisation (google.com, Enterprise Outlook, ...).' }),
    domain: t.exposeString('domain', { nullable: true }),
    id: t.exposeInt('id', { nullable: true, description: 'The stored report (GET /v1/portal/reports); null unless stored now.' }),
    messages: t.exposeInt('messages', { nullable: true, description: 'DMARC: messages reported; TLS-RPT: sessions.' }),
    authenticated: t.exposeBoolean('authenticated', {
      description:
        'Uploaded with your key for your own domain, or (by SMTP) DKIM-signed by the reporting organisation: only these count in analytics, sources and alerts.',
    }),
    code: t.exposeString('code', {
      nullable: true,
      description: 'Why it was not stored (duplicate, unknown_domain, decompression_bomb, dtd_refused, invalid_xml, ...).',
    }),
    detail: t.exposeString('detail', { nullable: true }),
  }),
});

const ReportUploadRef = builder.objectRef<ReportUpload>('ReportUpload').implement({
  fields: (t) => ({
    files: t.field({ type: [ReportFileRef], resolve: (u) => [...u.files] }),
    stored: t.exposeInt('stored', { description: 'Reports stored by this upload.' }),
    duplicates: t.exposeInt('duplicates', { description: 'Reports already stored before (not counted twice).' }),
  }),
});

const ReportUploadInput = builder.inputType('ReportUploadInput', {
  fields: (t) => ({
    content: t.string({
      required: true,
      description: 'The report file in base64: DMARC aggregate XML, .xml.gz, .zip, a whole message (.eml), or TLS-RPT .json / .json.gz.',
    }),
    filename: t.string({ required: false, description: 'The file name, for the answer and the log.' }),
  }),
});

builder.mutationField('uploadReport', (t) =>
  t.field({
    type: ReportUploadRef,
    description: 'Reads a DMARC aggregate or TLS-RPT report file forwarded from a mailbox we do not run, and stores each report in it once.',
    authScopes: { write: true },
    args: { input: t.arg({ type: ReportUploadInput, required: true }) },
    resolve: (_root, args, ctx) => uploadReport(args.input, ctx),
  }),
);

const ReportSummaryRef = builder.objectRef<ReportSummary>('ReportSummary').implement({
  description: 'A stored DMARC aggregate or TLS-RPT report.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Our id: page on with starting_after=<id>.' }),
    kind: t.field({ type: ReportKindEnum, resolve: (r) => r.kind }),
    domain: t.exposeString('domain'),
    orgName: t.exposeString('orgName', { description: 'The reporting organisation.' }),
    reportId: t.exposeString('reportId', { description: "The reporter's own report id." }),
    begin: t.expose('begin', { type: 'DateTime' }),
    end: t.expose('end', { type: 'DateTime' }),
    messages: t.exposeInt('messages', { description: 'DMARC: messages reported; TLS-RPT: sessions.' }),
    passed: t.exposeInt('passed', { description: 'DMARC: messages passing DMARC; TLS-RPT: successful sessions.' }),
    passRate: t.exposeFloat('passRate', { nullable: true, description: 'passed of messages, in percent; null when the report counts none.' }),
    records: t.exposeInt('records', { description: 'DMARC: <record> rows; TLS-RPT: policies.' }),
    receivedVia: t.exposeString('receivedVia', { description: 'smtp or upload.' }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
    authenticated: t.exposeBoolean('authenticated', {
      description:
        'true: uploaded with the account key, or by SMTP DKIM-signed by (and aligned with) the reporting organisation. false: stored and listed, but not counted in analytics, sources or alerts.',
    }),
  }),
});

const ReportPageRef = builder.objectRef<ReportPage>('ReportPage').implement({
  fields: (t) => ({
    data: t.field({ type: [ReportSummaryRef], resolve: (p) => [...p.data] }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More reports after this page: ask again with starting_after the last id.' }),
  }),
});

builder.queryField('reports', (t) =>
  t.field({
    type: ReportPageRef,
    description:
      "The account's DMARC and TLS-RPT reports, newest received first: limit (1-100, default 20), startingAfter (the last id of the previous page), domain.",
    authScopes: { read: true },
    args: { limit: t.arg.int({ required: false }), startingAfter: t.arg.string({ required: false }), domain: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => listReports(args, ctx),
  }),
);

const ReportConnectionRef = connectionOf('Report', ReportSummaryRef, "A page of the account's reports, newest received first.", 'data');

builder.queryField('reportsConnection', (t) =>
  t.field({
    type: ReportConnectionRef,
    description: `The account's DMARC and TLS-RPT reports, newest received first, a page at a time: first: reports per page, 1 to 100 (default 20); after: the endCursor of the previous page (a report id); domain: only this domain's.`,
    authScopes: { read: true },
    args: { first: t.arg.int({ required: false }), after: t.arg.string({ required: false }), domain: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => listReportsPage(args, ctx),
  }),
);

const DomainSourceRef = builder.objectRef<DomainSource>('DomainSource').implement({
  description: 'One address sending as the domain, from DMARC aggregate reports.',
  fields: (t) => ({
    sourceIp: t.exposeString('sourceIp'),
    ptr: t.exposeString('ptr', {
      nullable: true,
      description: 'The PTR name of the address (lower case, no trailing dot); null when it has none or our resolver did not answer in time.',
    }),
    messages: t.exposeInt('messages'),
    passed: t.exposeInt('passed', { description: 'Messages that passed DMARC (aligned DKIM or SPF).' }),
    passRate: t.exposeFloat('passRate', { description: 'passed of messages, in percent.' }),
    dkimAligned: t.exposeInt('dkimAligned', { description: 'Messages with aligned, passing DKIM.' }),
    spfAligned: t.exposeInt('spfAligned', { description: 'Messages with aligned, passing SPF.' }),
    quarantined: t.exposeInt('quarantined'),
    rejected: t.exposeInt('rejected'),
    reporters: t.exposeInt('reporters', { description: 'Reporting organisations that saw it.' }),
    firstDay: t.exposeString('firstDay'),
    lastDay: t.exposeString('lastDay'),
  }),
});

const DomainSourcesRef = builder.objectRef<DomainSources>('DomainSources').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    period: t.field({ type: AnalyticsPeriodEnum, description: 'The period asked for, ending today.', resolve: (s) => s.period }),
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    sources: t.field({
      type: [DomainSourceRef],
      description: 'Most messages first; at most 200. Empty when no report covers the period.',
      resolve: (s) => [...s.sources],
    }),
  }),
});

builder.queryField('domainSources', (t) =>
  t.field({
    type: DomainSourcesRef,
    description: 'Who sends as one of your domains over a period (from DMARC aggregate reports): each source address with its volume and pass rate.',
    authScopes: { read: true },
    args: {
      domain: t.arg.string({ required: true }),
      period: t.arg({ type: AnalyticsPeriodEnum, required: false, description: 'Default P7D (7d on REST and MCP).' }),
    },
    resolve: (_root, args, ctx) => getDomainSources(args.domain, args.period, ctx),
  }),
);

const ReportDayRef = builder.objectRef<ReportDay>('ReportDay').implement({
  description: "One day's DMARC aggregate reports for a domain, summed over every reporter.",
  fields: (t) => ({
    day: t.exposeString('day', { description: "YYYY-MM-DD: the UTC day of the reports' periods." }),
    messages: t.exposeInt('messages', { description: 'Messages reported.' }),
    passed: t.exposeInt('passed', { description: 'Messages passing DMARC.' }),
    passRate: t.exposeFloat('passRate', { nullable: true, description: 'passed of messages, in percent; null when the reports count no message.' }),
  }),
});

const DomainReportDaysRef = builder.objectRef<DomainReportDays>('DomainReportDays').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    days: t.field({
      type: [ReportDayRef],
      description: 'Only the days a DMARC report covers, oldest first: a day without a report is absent (never 0). Empty: no report yet in the period.',
      resolve: (d) => [...d.days],
    }),
  }),
});

const ReportDaysRef = builder.objectRef<ReportDays>('ReportDays').implement({
  fields: (t) => ({
    period: t.field({ type: AnalyticsPeriodEnum, description: 'The period asked for, ending today.', resolve: (s) => s.period }),
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    domains: t.field({ type: [DomainReportDaysRef], description: 'Every domain of the account, by name.', resolve: (s) => [...s.domains] }),
  }),
});

builder.queryField('reportDays', (t) =>
  t.field({
    type: ReportDaysRef,
    description: 'Volume and DMARC pass rate per domain and day over a period, from DMARC aggregate reports: what the portal charts.',
    authScopes: { read: true },
    args: { period: t.arg({ type: AnalyticsPeriodEnum, required: false, description: 'Default P7D (7d on REST and MCP).' }) },
    resolve: (_root, args, ctx) => getReportDays(args.period, ctx),
  }),
);
