import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { findOwnedDomain } from '../changes/find-owned.js';
import { ANALYTICS_PERIODS, parsePeriod, type AnalyticsPeriod } from '../account/get-analytics.js';
import { findDomainSources } from '../../db/dmarc-report-rows.js';
import { nameSources } from './source-ptr-names.js';

export interface DomainSource {
  readonly sourceIp: string;
  /** The address's PTR name as our resolver answers it; null when it has none or did not answer in time (docs/reports.md). */
  readonly ptr: string | null;
  readonly messages: number;
  readonly passed: number;
  /** Percentage of messages passing DMARC, one decimal. */
  readonly passRate: number;
  readonly dkimAligned: number;
  readonly spfAligned: number;
  readonly quarantined: number;
  readonly rejected: number;
  /** Reporting organisations that saw this source. */
  readonly reporters: number;
  readonly firstDay: string;
  readonly lastDay: string;
}

export interface DomainSources {
  readonly domain: string;
  readonly period: AnalyticsPeriod;
  readonly from: string;
  readonly to: string;
  readonly sources: readonly DomainSource[];
}

/** Who sends as the domain, from the DMARC aggregate reports of the period: each source address with its volume and pass rate, most messages first (at most 200). */
export async function getDomainSources(domain: string, rawPeriod: string | null | undefined, ctx: Context): Promise<DomainSources> {
  const period = parsePeriod(rawPeriod);
  const accountId = await requireAccountId(ctx);
  const owned = await findOwnedDomain(ctx.services.db, accountId, domain);
  const to = ctx.now();
  const from = new Date(to.getTime() - (ANALYTICS_PERIODS[period] - 1) * 86_400_000);
  const fromDay = from.toISOString().slice(0, 10);
  const rows = await findDomainSources(ctx.services.db, owned.id, fromDay);
  const names = await nameSources(
    ctx.services.db,
    ctx.checks().dns,
    rows.map((r) => r.source_ip),
    to,
  );
  return {
    domain: owned.domain,
    period,
    from: fromDay,
    to: to.toISOString().slice(0, 10),
    sources: rows.map((r) => ({
      sourceIp: r.source_ip,
      ptr: names.get(r.source_ip) ?? null,
      messages: r.messages,
      passed: r.passed,
      passRate: r.messages > 0 ? Math.round((r.passed / r.messages) * 1000) / 10 : 0,
      dkimAligned: r.dkim_aligned,
      spfAligned: r.spf_aligned,
      quarantined: r.quarantined,
      rejected: r.rejected,
      reporters: r.reporters,
      firstDay: r.first_day,
      lastDay: r.last_day,
    })),
  };
}
