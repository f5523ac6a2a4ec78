import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { ANALYTICS_PERIODS, parsePeriod, type AnalyticsPeriod } from '../account/get-analytics.js';
import { listAccountDomains } from '../../db/domains.js';

/** Every domain of the account with only the days its reports cover, oldest first (the shape DMARC's and TLS-RPT's per-day reads share). */
export interface DaysByDomain<Day> {
  readonly period: AnalyticsPeriod;
  readonly from: string;
  readonly to: string;
  readonly domains: readonly { readonly domain: string; readonly days: readonly Day[] }[];
}

/**
 * The per-day read of the caller's domains over a period: `figures` reads the rows of those domains
 * from the first day on (by domain, then day), and `day` makes each row an answer's day. A domain no
 * report covers has no days, never a day of 0.
 */
export async function daysByDomain<Row extends { readonly domain_id: number }, Day>(
  rawPeriod: string | null | undefined,
  ctx: Context,
  figures: (domainIds: readonly number[], fromDay: string) => Promise<readonly Row[]>,
  day: (row: Row) => Day,
): Promise<DaysByDomain<Day>> {
  const period = parsePeriod(rawPeriod);
  const accountId = await requireAccountId(ctx);
  const to = ctx.now();
  const fromDay = new Date(to.getTime() - (ANALYTICS_PERIODS[period] - 1) * 86_400_000).toISOString().slice(0, 10);
  const domains = await listAccountDomains(ctx.services.db, accountId);
  const byDomain = new Map<number, Day[]>();
  for (const row of await figures(
    domains.map((d) => d.id),
    fromDay,
  ))
    byDomain.set(row.domain_id, [...(byDomain.get(row.domain_id) ?? []), day(row)]);
  return { period, from: fromDay, to: to.toISOString().slice(0, 10), domains: domains.map((d) => ({ domain: d.domain, days: byDomain.get(d.id) ?? [] })) };
}
