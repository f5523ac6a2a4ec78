import { sql, type Kysely } from 'kysely';
import type { Database, NewDomainAnalytics } from './schema.js';

/** Each domain of the account by name, with its figures summed over the days from `fromDay` to `toDay` (0 when none). */
export function listDomainAnalytics(db: Kysely<Database>, accountId: number, fromDay: string, toDay: string) {
  return db
    .selectFrom('domains')
    .leftJoin('domain_analytics as a', (join) => join.onRef('a.domain_id', '=', 'domains.id').on('a.day', '>=', fromDay).on('a.day', '<=', toDay))
    .select(['domains.id', 'domains.domain', 'domains.watched_since'])
    .select([
      sql<number>`coalesce(sum(a.sent), 0)::int`.as('sent'),
      sql<number>`coalesce(sum(a.delivered), 0)::int`.as('delivered'),
      sql<number>`coalesce(sum(a.bounced), 0)::int`.as('bounced'),
      sql<number>`coalesce(sum(a.replied), 0)::int`.as('replied'),
      sql<number>`coalesce(sum(a.inbox_placed), 0)::int`.as('inbox_placed'),
      sql<number>`coalesce(sum(a.spam_placed), 0)::int`.as('spam_placed'),
    ])
    .where('domains.account_id', '=', accountId)
    .groupBy(['domains.id', 'domains.domain', 'domains.watched_since'])
    .orderBy('domains.domain')
    .execute();
}

/** The day's figures for the domain, unless that day is recorded already. */
export async function insertDomainAnalyticsDay(
  db: Kysely<Database>,
  domainId: number,
  day: string,
  figures: { sent: number; delivered: number; bounced: number; replied: number; inbox_placed: number; spam_placed: number },
): Promise<void> {
  await db
    .insertInto('domain_analytics')
    .values({ domain_id: domainId, day, ...figures })
    .onConflict((oc) => oc.columns(['domain_id', 'day']).doNothing())
    .execute();
}

/** Inserts days of figures (the demo seed's history). */
export async function insertDomainAnalytics(db: Kysely<Database>, days: readonly NewDomainAnalytics[]): Promise<void> {
  await db.insertInto('domain_analytics').values(days).execute();
}
