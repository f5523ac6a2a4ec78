import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { ANALYTICS_PERIODS, parsePeriod, type AnalyticsPeriod } from '../account/get-analytics.js';
import { findDailyTlsFigures } from '../../db/tls-report-policies.js';
import { listAccountDomains } from '../../db/domains.js';

export interface TlsReportDay {
  /** 'YYYY-MM-DD', the UTC day of the reports' periods. */
  readonly day: string;
  readonly successfulSessions: number;
  readonly failedSessions: number;
  /** Percentage of the day's sessions that succeeded, one decimal; null when the reports count no session. */
  readonly successRate: number | null;
}

export interface DomainTlsReportDays {
  readonly domain: string;
  /** Only the days some TLS report covers, oldest first: a day without a report is absent, never 0. */
  readonly days: readonly TlsReportDay[];
}

export interface TlsReportDays {
  readonly period: AnalyticsPeriod;
  readonly from: string;
  readonly to: string;
  readonly domains: readonly DomainTlsReportDays[];
}

/**
 * TLS sessions to the domain's mail servers per domain and day over the period, from receivers'
 * TLS-RPT reports (RFC 8460; authenticated ones only, as DMARC's): what the portal charts beside
 * DMARC. A failed session is a sender that could not set up TLS to the domain's MX as its MTA-STS or
 * DANE policy requires.
 */
export async function getTlsReportDays(rawPeriod: string | null | undefined, ctx: Context): Promise<TlsReportDays> {
  const period = parsePeriod(rawPeriod);
  const accountId = await requireAccountId(ctx);
  const to = ctx.now();
  const fromDay = new Date(to.getTime() - (ANALYTICS_PERIODS[period] - 1) * 86_400_000).toISOString().slice(0, 10);
  const domains = await listAccountDomains(ctx.services.db, accountId);
  const figures = await findDailyTlsFigures(
    ctx.services.db,
    domains.map((d) => d.id),
    fromDay,
  );
  const byDomain = new Map<number, TlsReportDay[]>();
  for (const f of figures) {
    const total = f.successful + f.failed;
    const days = byDomain.get(f.domain_id) ?? [];
    days.push({
      day: f.day,
      successfulSessions: f.successful,
      failedSessions: f.failed,
      successRate: total > 0 ? Math.round((f.successful / total) * 1000) / 10 : null,
    });
    byDomain.set(f.domain_id, days);
  }
  return {
    period,
    from: fromDay,
    to: to.toISOString().slice(0, 10),
    domains: domains.map((d) => ({ domain: d.domain, days: byDomain.get(d.id) ?? [] })),
  };
}
