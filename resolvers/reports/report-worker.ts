// Runs in a worker thread of the report pool (report-pool.ts), never on the main thread: every
// step here is CPU in proportion to what a stranger sent (MIME, base64, gzip, zip, XML, JSON,
// DKIM's body hash), and the main thread only waits for the answer.
import { readReports } from './read-reports.js';
import { packReport, type ReportInTransit } from './report-transit.js';
import { screenReportMessage, type MessageScreen } from './screen-report-message.js';
import { verifyReportDkim, type DkimVerdict } from './verify-report-dkim.js';
import type { ReportLimits } from './report-limits.js';
import type { ReportRefusalCode } from './report-refusal.js';

/** A refusal crosses the thread as data (an Error subclass would arrive as a plain Error). */
export type WorkerFileOutcome =
  | { readonly name: string; readonly report: ReportInTransit }
  | { readonly name: string; readonly refused: { readonly code: ReportRefusalCode; readonly detail: string } };

export type ReportTask =
  | { readonly op: 'screen'; readonly bytes: Uint8Array }
  | {
      readonly op: 'read';
      readonly name: string;
      readonly bytes: Uint8Array;
      readonly allowMessage: boolean;
      readonly limits?: ReportLimits;
      /** DNS servers ("ip" or "ip:port") for the DKIM keys; null: no DKIM verification (uploads). */
      readonly dkimDnsServers: readonly string[] | null;
    };

export interface ReadAnswer {
  readonly files: readonly WorkerFileOutcome[];
  readonly dkim: readonly DkimVerdict[];
  /** Why the message's DKIM could not be verified at all (its reports are then unauthenticated); null when it was. */
  readonly dkimError: string | null;
}

export default async function runReportTask(task: ReportTask): Promise<MessageScreen | ReadAnswer> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  if (task.op === 'screen') return screenReportMessage(bytes);
  const [outcomes, dkim] = await Promise.all([
    readReports(task.name, bytes, { allowMessage: task.allowMessage, ...(task.limits ? { limits: task.limits } : {}) }),
    task.dkimDnsServers ? verifyReportDkim(bytes, task.dkimDnsServers) : Promise.resolve({ verdicts: [], error: null }),
  ]);
  return {
    files: outcomes.map((o) =>
      'refusal' in o ? { name: o.name, refused: { code: o.refusal.code, detail: o.refusal.detail } } : { name: o.name, report: packReport(o.report) },
    ),
    dkim: dkim.verdicts,
    dkimError: dkim.error,
  };
}
