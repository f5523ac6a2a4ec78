import type { Kysely } from 'kysely';
import type { Database, NewReport, ReportRow } from './schema.js';

/** The account that owns `domain` (its newest domain row), or undefined when no account does. */
export function findReportDomainOwner(db: Kysely<Database>, domain: string): Promise<{ domain_id: number; account_id: number } | undefined> {
  return db.selectFrom('domains').select(['id as domain_id', 'account_id']).where('domain', '=', domain).orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/**
 * Inserts the report, or nothing when the same account already holds it for the same domain (kind,
 * organisation, report id, and whether it is authenticated): the new id, or null for a duplicate.
 * Another account's reports never make one a duplicate.
 */
export async function insertReport(db: Kysely<Database>, report: NewReport): Promise<number | null> {
  const row = await db
    .insertInto('reports')
    .values(report)
    .onConflict((oc) => oc.columns(['account_id', 'domain', 'kind', 'org_name', 'report_id', 'authenticated']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Whether the report is the account's (a page cursor must be). */
export async function findAccountReport(db: Kysely<Database>, accountId: number, reportId: number): Promise<boolean> {
  const row = await db.selectFrom('reports').select('id').where('id', '=', reportId).where('account_id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}

/** One page of the account's reports, newest first (by id); one row more than `limit` tells there is more. */
export function findReportsPage(
  db: Kysely<Database>,
  accountId: number,
  page: { readonly limit: number; readonly startingAfter: number | null; readonly domain?: string | null },
): Promise<ReportRow[]> {
  let query = db.selectFrom('reports').selectAll().where('account_id', '=', accountId);
  if (page.startingAfter !== null) query = query.where('id', '<', page.startingAfter);
  if (page.domain) query = query.where('domain', '=', page.domain);
  return query
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
}

/** Deletes reports whose period ended before `before` (their rows go with them): how many were deleted. */
export async function deleteReportsEndedBefore(db: Kysely<Database>, before: Date, batch = 1000): Promise<number> {
  const result = await db
    .deleteFrom('reports')
    .where('id', 'in', (eb) => eb.selectFrom('reports').select('id').where('end_at', '<', before).limit(batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
