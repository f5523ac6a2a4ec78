import type { Context } from '../context.js';
import type { AnalyticsPeriod } from '../account/get-analytics.js';
import { findDailyTlsFigures } from '../../db/tls-report-policies.js';
import { daysByDomain } from './days-by-domain.js';

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
export function getTlsReportDays(rawPeriod: string | null | undefined, ctx: Context): Promise<TlsReportDays> {
  return daysByDomain(
    rawPeriod,
    ctx,
    (ids, fromDay) => findDailyTlsFigures(ctx.services.db, ids, fromDay),
    (f): TlsReportDay => {
      const total = f.successful + f.failed;
      return {
        day: f.day,
        successfulSessions: f.successful,
        failedSessions: f.failed,
        successRate: total > 0 ? Math.round((f.successful / total) * 1000) / 10 : null,
      };
    },
  );
}
