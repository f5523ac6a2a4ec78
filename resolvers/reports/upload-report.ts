import { DomainError } from '../domain-error.js';
import { requireAccountId } from '../auth/require-account.js';
import type { Context } from '../context.js';
import { ingestReports, type IngestedFile } from './ingest-reports.js';
import { REPORT_LIMITS } from './report-limits.js';
import { ReportPoolBusy } from './report-pool.js';
import { REPORT_REFUSAL_CODES } from './report-refusal.js';

/** How long a caller refused for a full report queue is asked to wait. */
const REPORTS_BUSY_RETRY_SECONDS = 30;

/**
 * The largest body POST /v1/reports takes, past the listener's 1 MiB: a file of
 * REPORT_LIMITS.maxInputBytes in base64 (4/3 of it) inside a JSON object, with room for the name.
 * A raw body between the file cap and this is refused here, after reading, with the same 413.
 */
export const REPORT_UPLOAD_BODY_BYTES = Math.ceil(REPORT_LIMITS.maxInputBytes / 3) * 4 + 64 * 1024;
export const REPORT_UPLOAD_TOO_LARGE = `A report file is taken up to ${REPORT_LIMITS.maxInputBytes} bytes (10 MiB) as the body, or its base64 in "content" (up to ${REPORT_UPLOAD_BODY_BYTES} bytes of JSON); send it compressed (.gz or .zip, as receivers do), or split the upload.`;

export interface ReportUpload {
  readonly files: readonly IngestedFile[];
  readonly stored: number;
  readonly duplicates: number;
}

/** The statuses one uploaded file may end in. */
export const REPORT_FILE_STATUSES = ['stored', 'duplicate', 'unknown_domain', 'refused'] as const;

/**
 * A report file a customer forwards (POST /v1/reports): the file's bytes as base64 (REST also takes
 * the raw bytes as the body). Every report inside is read and stored once for the caller's own
 * domains. An upload of which nothing could be taken is refused (400) with the first file's reason;
 * one with a report stored or already stored answers each file's fate.
 */
export async function uploadReport(input: { readonly content: string; readonly filename?: string | null }, ctx: Context): Promise<ReportUpload> {
  const accountId = await requireAccountId(ctx);
  const text = input.content.replace(/\s+/g, '');
  if (text === '') throw new DomainError('missing_content', 'Send the report file: its bytes as the request body, or base64 in "content".');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw new DomainError('invalid_base64', '"content" must be the file in base64 (A-Z, a-z, 0-9, +, /, =).');
  const bytes = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  if (bytes.length > REPORT_LIMITS.maxInputBytes) throw new DomainError('report_too_large', `The file is ${bytes.length} bytes. ${REPORT_UPLOAD_TOO_LARGE}`);
  const filename = (input.filename ?? 'upload').slice(0, 200);
  const pool = ctx.services.reportPool;
  if (!pool)
    throw new DomainError('reports_unavailable', 'This instance reads no reports (it was started without its report workers); try again later.', {
      retry_after: 30,
    });
  let files: IngestedFile[];
  try {
    files = await ingestReports(ctx.services.db, pool, filename, bytes, { via: 'upload', accountId, allowMessage: true });
  } catch (error) {
    if (error instanceof ReportPoolBusy)
      throw new DomainError(
        'reports_busy',
        `Every report worker is busy and the queue is full; send the file again after ${REPORTS_BUSY_RETRY_SECONDS} seconds (Retry-After).`,
        {
          retry_after: REPORTS_BUSY_RETRY_SECONDS,
        },
      );
    throw error;
  }
  const stored = files.filter((f) => f.status === 'stored').length;
  const duplicates = files.filter((f) => f.status === 'duplicate').length;
  const first = files[0];
  if (stored + duplicates === 0 && first) {
    const code = REPORT_REFUSAL_CODES.find((c) => c === first.code) ?? (first.code === 'unknown_domain' ? 'unknown_domain' : 'not_a_report');
    throw new DomainError(code, `${first.detail ?? 'The file holds no report.'}${files.length > 1 ? ` (${files.length} files; none could be stored.)` : ''}`, {
      files: files.map(fileForRest),
    });
  }
  return { files, stored, duplicates };
}

function fileForRest(f: IngestedFile) {
  return {
    file: f.file,
    status: f.status,
    kind: f.kind,
    report_id: f.reportId,
    org_name: f.orgName,
    domain: f.domain,
    authenticated: f.authenticated,
    code: f.code,
    detail: f.detail,
  };
}
