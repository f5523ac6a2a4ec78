import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { ANALYTICS_PERIODS, parsePeriod, type AnalyticsPeriod } from '../account/get-analytics.js';
import { findDailyReportFigures } from '../../db/dmarc-report-rows.js';
import { listAccountDomains } from '../../db/domains.js';

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
export async function getReportDays(rawPeriod: string | null | undefined, ctx: Context): Promise<ReportDays> {
  const period = parsePeriod(rawPeriod);
  const accountId = await requireAccountId(ctx);
  const to = ctx.now();
  const fromDay = new Date(to.getTime() - (ANALYTICS_PERIODS[period] - 1) * 86_400_000).toISOString().slice(0, 10);
  const domains = await listAccountDomains(ctx.services.db, accountId);
  const figures = await findDailyReportFigures(
    ctx.services.db,
    domains.map((d) => d.id),
    fromDay,
  );
  const byDomain = new Map<number, ReportDay[]>();
  for (const f of figures) {
    const days = byDomain.get(f.domain_id) ?? [];
    days.push({ day: f.day, messages: f.messages, passed: f.passed, passRate: f.messages > 0 ? Math.round((f.passed / f.messages) * 1000) / 10 : null });
    byDomain.set(f.domain_id, days);
  }
  return {
    period,
    from: fromDay,
    to: to.toISOString().slice(0, 10),
    domains: domains.map((d) => ({ domain: d.domain, days: byDomain.get(d.id) ?? [] })),
  };
}
