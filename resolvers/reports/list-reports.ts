import { badRequest } from '../api-error.js';
import { requireAccountId } from '../auth/require-account.js';
import type { Context } from '../context.js';
import { findReportsPage } from '../../db/reports.js';

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
}

export interface ReportPage {
  readonly data: readonly ReportSummary[];
  readonly hasMore: boolean;
}

/** The account's reports, newest received first: `limit` (1-100, default 20), `starting_after` (the id of the last report of the previous page), `domain`. */
export async function listReports(
  args: { readonly limit?: number | null; readonly startingAfter?: string | null; readonly domain?: string | null },
  ctx: Context,
): Promise<ReportPage> {
  const accountId = await requireAccountId(ctx);
  const limit = args.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw badRequest('invalid_limit', `"limit" is a whole number from 1 to 100, not ${limit}.`);
  let startingAfter: number | null = null;
  if (args.startingAfter !== null && args.startingAfter !== undefined && args.startingAfter !== '') {
    if (!/^\d{1,9}$/.test(args.startingAfter))
      throw badRequest(
        'invalid_starting_after',
        `"starting_after" must be the id of a report from a previous page (a whole number), not "${args.startingAfter.slice(0, 40)}".`,
      );
    startingAfter = Number(args.startingAfter);
  }
  const domain = args.domain ? args.domain.trim().toLowerCase().replace(/\.$/, '') : null;
  const rows = await findReportsPage(ctx.services.db, accountId, { limit, startingAfter, domain });
  return {
    data: rows.slice(0, limit).map((r) => {
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
      };
    }),
    hasMore: rows.length > limit,
  };
}
