import { requireAccountId } from '../auth/require-account.js';
import type { Context } from '../context.js';
import { findAccountReport, findReportsPage } from '../../db/reports.js';
import { invalidCursor, numericCursor, pageOf, readPageArgs, type Page, type PageArgs } from '../pagination.js';

export interface ReportSummary {
  readonly id: number;
  readonly kind: 'dmarc' | 'tls';
  readonly domain: string;
  readonly orgName: string;
  readonly reportId: string;
  readonly begin: Date;
  readonly end: Date;
  /** DMARC: messages; TLS-RPT: sessions. */
  readonly messages: number;
  /** DMARC: messages that passed DMARC; TLS-RPT: successful sessions. */
  readonly passed: number;
  /** passed / messages as a percentage with one decimal; null when the report counts nothing. */
  readonly passRate: number | null;
  readonly records: number;
  readonly receivedVia: string;
  readonly receivedAt: Date;
  /** Counted in analytics, sources and alerts (docs/reports.md, "Authenticated reports"). */
  readonly authenticated: boolean;
}

export interface ReportPage {
  readonly data: readonly ReportSummary[];
  readonly hasMore: boolean;
}

/** Reports per page when the caller does not say. */
const DEFAULT_REPORTS_LIMIT = 20;

/** The account's reports, newest received first: `limit` (1-100, default 20), `starting_after` (the id of the last report of the previous page), `domain`. */
export async function listReports(
  args: { readonly limit?: number | null; readonly startingAfter?: string | null; readonly domain?: string | null },
  ctx: Context,
): Promise<ReportPage> {
  const page = await listReportsPage({ first: args.limit, after: args.startingAfter, domain: args.domain }, ctx);
  return { data: page.items, hasMore: page.hasMore };
}

/** The same list as a page of a connection (GraphQL's reportsConnection: first, after, domain). */
export async function listReportsPage(args: PageArgs & { readonly domain?: string | null }, ctx: Context): Promise<Page<ReportSummary>> {
  const accountId = await requireAccountId(ctx);
  const request = readPageArgs(args, DEFAULT_REPORTS_LIMIT);
  let startingAfter: number | null = null;
  if (request.after !== null) {
    startingAfter = numericCursor(request.after);
    if (startingAfter === null || !(await findAccountReport(ctx.services.db, accountId, startingAfter)))
      throw invalidCursor('the id of a report (a whole number)', request.after);
  }
  const domain = args.domain ? args.domain.trim().toLowerCase().replace(/\.$/, '') : null;
  const rows = await findReportsPage(ctx.services.db, accountId, { limit: request.limit, startingAfter, domain });
  const summaries = rows.map((r): ReportSummary => {
    const messages = Number(r.messages);
    const passed = Number(r.messages_passed);
    return {
      id: r.id,
      kind: r.kind,
      domain: r.domain,
      orgName: r.org_name,
      reportId: r.report_id,
      begin: r.begin_at,
      end: r.end_at,
      messages,
      passed,
      passRate: messages > 0 ? Math.round((passed / messages) * 1000) / 10 : null,
      records: r.records,
      receivedVia: r.received_via,
      receivedAt: r.received_at,
      authenticated: r.authenticated,
    };
  });
  return pageOf(summaries, request, (r) => String(r.id));
}
