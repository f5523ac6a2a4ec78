import type { Context } from '../context.js';
import type { AnalyticsPeriod } from '../account/get-analytics.js';
import { findDailyReportFigures } from '../../db/dmarc-report-rows.js';
import { daysByDomain } from './days-by-domain.js';

export interface ReportDay {
  /** 'YYYY-MM-DD', the UTC day of the reports' periods. */
  readonly day: string;
  readonly messages: number;
  readonly passed: number;
  /** Percentage of the day's messages passing DMARC, one decimal; null when the reports count no message. */
  readonly passRate: number | null;
}

export interface DomainReportDays {
  readonly domain: string;
  /** Only the days some DMARC report covers, oldest first: a day without a report is absent, never 0. Empty: no report in the period. */
  readonly days: readonly ReportDay[];
}

export interface ReportDays {
  readonly period: AnalyticsPeriod;
  readonly from: string;
  readonly to: string;
  readonly domains: readonly DomainReportDays[];
}

/** Volume and DMARC pass rate per domain and day over the period, from receivers' DMARC aggregate reports (what the portal charts). */
export function getReportDays(rawPeriod: string | null | undefined, ctx: Context): Promise<ReportDays> {
  return daysByDomain(
    rawPeriod,
    ctx,
    (ids, fromDay) => findDailyReportFigures(ctx.services.db, ids, fromDay),
    (f): ReportDay => ({
      day: f.day,
      messages: f.messages,
      passed: f.passed,
      passRate: f.messages > 0 ? Math.round((f.passed / f.messages) * 1000) / 10 : null,
    }),
  );
}
