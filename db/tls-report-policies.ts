import type { Kysely } from 'kysely';
import type { Database, NewTlsReportPolicy } from './schema.js';
import { dayText } from './dmarc-report-rows.js';

export async function insertTlsReportPolicies(db: Kysely<Database>, rows: readonly NewTlsReportPolicy[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('tls_report_policies')
      .values([...rows])
      .execute();
}

/** Successful and failed TLS sessions per domain from `sinceDay` on; a domain without TLS reports is absent. */
export async function findTlsFigures(
  db: Kysely<Database>,
  domainIds: readonly number[],
  sinceDay: string,
): Promise<{ domain_id: number; successful: number; failed: number }[]> {
  if (domainIds.length === 0) return [];
  const rows = await db
    .selectFrom('tls_report_policies')
    .select((eb) => ['domain_id', eb.fn.sum<string>('successful_sessions').as('successful'), eb.fn.sum<string>('failed_sessions').as('failed')])
    .where('domain_id', 'in', [...domainIds])
    .where('day', '>=', sinceDay)
    .where('authenticated', '=', true)
    .groupBy('domain_id')
    .execute();
  return rows.map((r) => ({ domain_id: r.domain_id, successful: Number(r.successful), failed: Number(r.failed) }));
}

/** Successful and failed TLS sessions per domain and UTC day from `sinceDay` on (authenticated reports), by domain then day. */
export async function findDailyTlsFigures(
  db: Kysely<Database>,
  domainIds: readonly number[],
  sinceDay: string,
): Promise<{ domain_id: number; day: string; successful: number; failed: number }[]> {
  if (domainIds.length === 0) return [];
  const rows = await db
    .selectFrom('tls_report_policies')
    .select((eb) => ['domain_id', 'day', eb.fn.sum<string>('successful_sessions').as('successful'), eb.fn.sum<string>('failed_sessions').as('failed')])
    .where('domain_id', 'in', [...domainIds])
    .where('day', '>=', sinceDay)
    .where('authenticated', '=', true)
    .groupBy(['domain_id', 'day'])
    .orderBy('domain_id')
    .orderBy('day')
    .execute();
  return rows.map((r) => ({ domain_id: r.domain_id, day: dayText(r.day), successful: Number(r.successful), failed: Number(r.failed) }));
}
