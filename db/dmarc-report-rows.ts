import { setImmediate } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database, NewDmarcReportRow } from './schema.js';

const CHUNK = 100;

/**
 * Inserts a report's rows in chunks, with a turn of the event loop between them. The service's
 * embedded PGlite runs in a worker thread (db/pglite-over-thread.ts) and has one connection: a
 * 20,000-row INSERT would hold it, and every other request's query would wait behind it, for
 * seconds; between chunks they go first. (A PGlite on this thread, as the tests lend, would also
 * hold the event loop for each chunk's statement.)
 */
export async function insertDmarcReportRows(db: Kysely<Database>, rows: readonly NewDmarcReportRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    if (i > 0) await setImmediate();
    await db
      .insertInto('dmarc_report_rows')
      .values(rows.slice(i, i + CHUNK))
      .execute();
  }
}

export interface SourceFigures {
  readonly source_ip: string;
  readonly messages: number;
  readonly passed: number;
  readonly dkim_aligned: number;
  readonly spf_aligned: number;
  readonly quarantined: number;
  readonly rejected: number;
  readonly reporters: number;
  readonly first_day: string;
  readonly last_day: string;
}

/** The domain's sources from `sinceDay` on, from authenticated reports only ('YYYY-MM-DD'), by messages, most first. */
export async function findDomainSources(db: Kysely<Database>, domainId: number, sinceDay: string, limit = 200): Promise<SourceFigures[]> {
  const rows = await db
    .selectFrom('dmarc_report_rows as r')
    .innerJoin('reports', 'reports.id', 'r.report_id')
    .select((eb) => [
      'r.source_ip',
      eb.fn.sum<string>('r.messages').as('messages'),
      eb.fn.sum<string>(eb.case().when('r.dmarc_pass', '=', true).then(eb.ref('r.messages')).else(0).end()).as('passed'),
      eb.fn.sum<string>(eb.case().when('r.dkim_aligned', '=', true).then(eb.ref('r.messages')).else(0).end()).as('dkim_aligned'),
      eb.fn.sum<string>(eb.case().when('r.spf_aligned', '=', true).then(eb.ref('r.messages')).else(0).end()).as('spf_aligned'),
      eb.fn.sum<string>(eb.case().when('r.disposition', '=', 'quarantine').then(eb.ref('r.messages')).else(0).end()).as('quarantined'),
      eb.fn.sum<string>(eb.case().when('r.disposition', '=', 'reject').then(eb.ref('r.messages')).else(0).end()).as('rejected'),
      eb.fn.count<string>('reports.org_name').distinct().as('reporters'),
      eb.fn.min<string>('r.day').as('first_day'),
      eb.fn.max<string>('r.day').as('last_day'),
    ])
    .where('r.domain_id', '=', domainId)
    .where('r.day', '>=', sinceDay)
    .where('r.authenticated', '=', true)
    .groupBy('r.source_ip')
    .orderBy('messages', 'desc')
    .orderBy('r.source_ip')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    source_ip: r.source_ip,
    messages: Number(r.messages),
    passed: Number(r.passed),
    dkim_aligned: Number(r.dkim_aligned),
    spf_aligned: Number(r.spf_aligned),
    quarantined: Number(r.quarantined),
    rejected: Number(r.rejected),
    reporters: Number(r.reporters),
    first_day: dayText(r.first_day),
    last_day: dayText(r.last_day),
  }));
}

export interface DomainReportFigures {
  readonly domain_id: number;
  readonly messages: number;
  readonly passed: number;
  readonly failing_sources: number;
}

/** Messages, DMARC passes and sources with failures per domain from `sinceDay` on (authenticated reports); a domain without rows is absent. */
export async function findReportFigures(db: Kysely<Database>, domainIds: readonly number[], sinceDay: string): Promise<DomainReportFigures[]> {
  if (domainIds.length === 0) return [];
  const rows = await db
    .selectFrom('dmarc_report_rows as r')
    .select((eb) => [
      'r.domain_id',
      eb.fn.sum<string>('r.messages').as('messages'),
      eb.fn.sum<string>(eb.case().when('r.dmarc_pass', '=', true).then(eb.ref('r.messages')).else(0).end()).as('passed'),
      eb.fn
        .count<string>(eb.case().when('r.dmarc_pass', '=', false).then(eb.ref('r.source_ip')).end())
        .distinct()
        .as('failing_sources'),
    ])
    .where('r.domain_id', 'in', [...domainIds])
    .where('r.day', '>=', sinceDay)
    .where('r.authenticated', '=', true)
    .groupBy('r.domain_id')
    .execute();
  return rows.map((r) => ({ domain_id: r.domain_id, messages: Number(r.messages), passed: Number(r.passed), failing_sources: Number(r.failing_sources) }));
}

/** A DATE column reads as a Date (pg) or a string (PGlite); either way 'YYYY-MM-DD'. */
export function dayText(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
}

/** Which of `sourceIps` appear for the domain in authenticated reports other than `exceptReportId`. */
export async function findSourcesSeenBefore(
  db: Kysely<Database>,
  domainId: number,
  sourceIps: readonly string[],
  exceptReportId: number,
): Promise<Set<string>> {
  if (sourceIps.length === 0) return new Set();
  const rows = await db
    .selectFrom('dmarc_report_rows')
    .select('source_ip')
    .distinct()
    .where('domain_id', '=', domainId)
    .where('source_ip', 'in', [...sourceIps])
    .where('report_id', '!=', exceptReportId)
    .where('authenticated', '=', true)
    .execute();
  return new Set(rows.map((r) => r.source_ip));
}

export interface DailyReportFigures {
  readonly domain_id: number;
  readonly day: string;
  readonly messages: number;
  readonly passed: number;
}

/** Messages and DMARC passes per domain and report day from `sinceDay` on (authenticated reports), oldest day first; a day without rows is absent (not 0). */
export async function findDailyReportFigures(db: Kysely<Database>, domainIds: readonly number[], sinceDay: string): Promise<DailyReportFigures[]> {
  if (domainIds.length === 0) return [];
  const rows = await db
    .selectFrom('dmarc_report_rows as r')
    .select((eb) => [
      'r.domain_id',
      'r.day',
      eb.fn.sum<string>('r.messages').as('messages'),
      eb.fn.sum<string>(eb.case().when('r.dmarc_pass', '=', true).then(eb.ref('r.messages')).else(0).end()).as('passed'),
    ])
    .where('r.domain_id', 'in', [...domainIds])
    .where('r.day', '>=', sinceDay)
    .where('r.authenticated', '=', true)
    .groupBy(['r.domain_id', 'r.day'])
    .orderBy('r.domain_id')
    .orderBy('r.day')
    .execute();
  return rows.map((r) => ({ domain_id: r.domain_id, day: dayText(r.day), messages: Number(r.messages), passed: Number(r.passed) }));
}
