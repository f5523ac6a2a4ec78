import { builder } from './builder.js';
import { sameSpellings, type DoorEnum } from './door-enum-extension.js';
import type { IngestedFile } from '../resolvers/reports/ingest-reports.js';
import { REPORT_FILE_STATUSES, uploadReport, type ReportUpload } from '../resolvers/reports/upload-report.js';

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
