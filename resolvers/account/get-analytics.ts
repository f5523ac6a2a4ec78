import { listDomainAnalytics } from '../../db/domain-analytics.js';
import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { findReportFigures } from '../../db/dmarc-report-rows.js';
import { findTlsFigures } from '../../db/tls-report-policies.js';

/** Accepted `period` values and their length in days (SPEC shows only 7d; the rest are our decision). */
export const ANALYTICS_PERIODS = { '1d': 1, '7d': 7, '14d': 14, '30d': 30, '90d': 90 } as const;
export type AnalyticsPeriod = keyof typeof ANALYTICS_PERIODS;

export interface DomainDeliverability {
  readonly domain: string;
  /** False until monitoring starts; every figure is then null, never 0. */
  readonly watched: boolean;
  readonly sent: number | null;
  readonly delivered: number | null;
  readonly bounced: number | null;
  readonly replied: number | null;
  /** Percentages with one decimal, of sent (bounce, reply) or of placement tests (inbox, spam). */
  readonly bounceRate: number | null;
  readonly replyRate: number | null;
  readonly inboxRate: number | null;
  readonly spamRate: number | null;
  /**
   * From receivers' DMARC aggregate reports over the period (docs/reports.md), beside our own checks:
   * messages reported, the percentage passing DMARC, source addresses with failing messages. Each is
   * null, never 0, when no report covers the domain in the period.
   */
  readonly reportedMessages: number | null;
  readonly dmarcPassRate: number | null;
  readonly failingSources: number | null;
  /** From TLS-RPT reports: sessions reported and the percentage that failed; null without a TLS report in the period. */
  readonly tlsSessions: number | null;
  readonly tlsFailureRate: number | null;
}

export interface Analytics {
  readonly period: AnalyticsPeriod;
  readonly from: string;
  readonly to: string;
  readonly domains: readonly DomainDeliverability[];
}

// Own keys only: `in` would take "toString" for a period.
function isAnalyticsPeriod(value: string): value is AnalyticsPeriod {
  return Object.hasOwn(ANALYTICS_PERIODS, value);
}

export function parsePeriod(raw: string | null | undefined): AnalyticsPeriod {
  const value = raw ?? '7d';
  if (isAnalyticsPeriod(value)) return value;
  throw new DomainError(
    'invalid_period',
    `"period" must be one of ${Object.keys(ANALYTICS_PERIODS).join(', ')}; "${String(value).slice(0, 20)}" is not accepted.`,
  );
}

function pct(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : null;
}

/** Per-domain deliverability over the period ending today (UTC), one query. */
export async function getAnalytics(ctx: Context, rawPeriod: string | null | undefined): Promise<Analytics> {
  const period = parsePeriod(rawPeriod);
  const accountId = await requireAccountId(ctx);
  const to = ctx.now();
  const from = new Date(to.getTime() - (ANALYTICS_PERIODS[period] - 1) * 86_400_000);
  const fromDay = from.toISOString().slice(0, 10);
  const toDay = to.toISOString().slice(0, 10);
  const rows = await listDomainAnalytics(ctx.services.db, accountId, fromDay, toDay);
  const ids = rows.map((r) => r.id);
  const dmarc = new Map((await findReportFigures(ctx.services.db, ids, fromDay)).map((f) => [f.domain_id, f]));
  const tls = new Map((await findTlsFigures(ctx.services.db, ids, fromDay)).map((f) => [f.domain_id, f]));
  const reportFigures = (id: number) => {
    const d = dmarc.get(id);
    const t = tls.get(id);
    const sessions = t ? t.successful + t.failed : null;
    return {
      reportedMessages: d ? d.messages : null,
      dmarcPassRate: d ? pct(d.passed, d.messages) : null,
      failingSources: d ? d.failing_sources : null,
      tlsSessions: sessions,
      tlsFailureRate: t && sessions ? pct(t.failed, sessions) : null,
    };
  };
  return {
    period,
    from: fromDay,
    to: toDay,
    domains: rows.map((r) => {
      if (r.watched_since === null) {
        return {
          ...reportFigures(r.id),
          domain: r.domain,
          watched: false,
          sent: null,
          delivered: null,
          bounced: null,
          replied: null,
          bounceRate: null,
          replyRate: null,
          inboxRate: null,
          spamRate: null,
        };
      }
      const placed = Number(r.inbox_placed) + Number(r.spam_placed);
      return {
        ...reportFigures(r.id),
        domain: r.domain,
        watched: true,
        sent: Number(r.sent),
        delivered: Number(r.delivered),
        bounced: Number(r.bounced),
        replied: Number(r.replied),
        bounceRate: pct(Number(r.bounced), Number(r.sent)),
        replyRate: pct(Number(r.replied), Number(r.sent)),
        inboxRate: pct(Number(r.inbox_placed), placed),
        spamRate: pct(Number(r.spam_placed), placed),
      };
    }),
  };
}
