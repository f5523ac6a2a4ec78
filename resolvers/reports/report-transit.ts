import { setImmediate } from 'node:timers/promises';
import type { DmarcRecord } from './parse-dmarc.js';
import type { TlsPolicySummary } from './parse-tls-rpt.js';
import type { ParsedReport } from './read-reports.js';

/**
 * A parsed report on its way from a report worker to the main thread. Its few fields cross as a
 * structured clone; its records (DMARC) or policies (TLS-RPT), up to 20,000 objects, cross as JSON
 * text in chunks. A clone of them all would be rebuilt on the main thread in one go when the
 * answer arrives (hundreds of milliseconds for a 10 MiB report on a busy machine, every other
 * request waiting); text crosses as a flat copy, and each chunk is parsed only when it is stored,
 * with a turn of the event loop between chunks (`readReportItems`).
 */
export interface ReportInTransit {
  /** The report with its records or policies left out (an empty list). */
  readonly header: ParsedReport;
  /** Messages (DMARC) or sessions (TLS-RPT) the report counts, and of them the passing or successful ones. */
  readonly messages: number;
  readonly passed: number;
  /** Records or policies in `chunks`, together. */
  readonly items: number;
  /** JSON arrays of at most REPORT_ITEMS_PER_CHUNK records or policies each. */
  readonly chunks: readonly string[];
}

export type ReportItem = DmarcRecord | TlsPolicySummary;

/**
 * Records or policies per chunk: one chunk is parsed and inserted (one multi-row INSERT) between two
 * turns of the event loop. Embedded PGlite runs each INSERT in its worker thread, on its one
 * connection: 100 rows take a few milliseconds there, 250 took 30 to 50 ms on a loaded machine, and
 * other requests' queries go between two chunks (docs/performance.md).
 */
export const REPORT_ITEMS_PER_CHUNK = 100;

/** In the worker: the report split into its header and its items as JSON chunks, with the totals the stored report row needs. */
export function packReport(report: ParsedReport, perChunk = REPORT_ITEMS_PER_CHUNK): ReportInTransit {
  const items: readonly ReportItem[] = report.kind === 'dmarc' ? report.records : report.policies;
  const chunks: string[] = [];
  for (let i = 0; i < items.length; i += perChunk) chunks.push(JSON.stringify(items.slice(i, i + perChunk)));
  const header: ParsedReport = report.kind === 'dmarc' ? { ...report, records: [] } : { ...report, policies: [] };
  if (report.kind === 'dmarc') {
    let messages = 0;
    let passed = 0;
    for (const r of report.records) {
      messages += r.count;
      if (r.dmarcPass) passed += r.count;
    }
    return { header, messages, passed, items: items.length, chunks };
  }
  let successful = 0;
  let failed = 0;
  for (const p of report.policies) {
    successful += p.successfulSessions;
    failed += p.failedSessions;
  }
  return { header, messages: successful + failed, passed: successful, items: items.length, chunks };
}

/**
 * On the main thread: a report's records or policies one chunk at a time, each parsed after a turn
 * of the event loop (requests that arrived meanwhile are answered first). The chunks are the
 * worker's own JSON of the report's items, so the kind given is the one packReport wrote.
 */
export async function* readReportItems<Item extends ReportItem>(chunks: readonly string[]): AsyncGenerator<Item[]> {
  for (const chunk of chunks) {
    await setImmediate();
    yield JSON.parse(chunk);
  }
}
