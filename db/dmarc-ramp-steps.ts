import type { Kysely } from 'kysely';
import type { Database, DmarcRampStepRow, NewDmarcRampStep } from './schema.js';
import { dayText } from './dmarc-report-rows.js';

export function insertDmarcRampStep(db: Kysely<Database>, step: NewDmarcRampStep): Promise<DmarcRampStepRow> {
  return db.insertInto('dmarc_ramp_steps').values(step).returningAll().executeTakeFirstOrThrow();
}

/** The domain's ramp timeline, oldest first. */
export function listDmarcRampSteps(db: Kysely<Database>, accountId: number, domain: string): Promise<DmarcRampStepRow[]> {
  return db.selectFrom('dmarc_ramp_steps').selectAll().where('account_id', '=', accountId).where('domain', '=', domain).orderBy('id').execute();
}

/**
 * Accounts that let the ramp act on its own and whose ramp has not run on `today` ('YYYY-MM-DD'),
 * each marked as run today as it is taken, so instances sharing the sweep queue one run a day.
 */
export function takeAutoRampAccountsDue(db: Kysely<Database>, today: string): Promise<{ id: number }[]> {
  return db
    .updateTable('accounts')
    .set({ dmarc_ramp_run_on: today })
    .where('dmarc_ramp_auto', '=', true)
    .where((eb) => eb.or([eb('dmarc_ramp_run_on', 'is', null), eb('dmarc_ramp_run_on', '<', today)]))
    .returning('id')
    .execute();
}

/** The account's domains that are proved its own: the ones the automatic ramp may publish to. */
export function listVerifiedRampDomains(db: Kysely<Database>, accountId: number): Promise<{ domain: string }[]> {
  return db
    .selectFrom('domains')
    .innerJoin('verified_domains', (join) =>
      join.onRef('verified_domains.domain', '=', 'domains.domain').onRef('verified_domains.account_id', '=', 'domains.account_id'),
    )
    .select('domains.domain')
    .distinct()
    .where('domains.account_id', '=', accountId)
    .orderBy('domains.domain')
    .execute();
}

export async function findDmarcRampAuto(db: Kysely<Database>, accountId: number): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('dmarc_ramp_auto').where('id', '=', accountId).executeTakeFirst();
  return row?.dmarc_ramp_auto ?? false;
}

export async function setDmarcRampAuto(db: Kysely<Database>, accountId: number, enabled: boolean): Promise<void> {
  await db.updateTable('accounts').set({ dmarc_ramp_auto: enabled }).where('id', '=', accountId).execute();
}

export interface RampReportFigures {
  /** Days with at least one authenticated report row. */
  readonly days: number;
  readonly messages: number;
  readonly passed: number;
  readonly firstDay: string | null;
}

/** Authenticated DMARC figures of the domain from `sinceDay` on ('YYYY-MM-DD'): days covered, messages and DMARC passes. */
export async function findRampReportFigures(db: Kysely<Database>, domainId: number, sinceDay: string): Promise<RampReportFigures> {
  const row = await db
    .selectFrom('dmarc_report_rows as r')
    .select((eb) => [
      eb.fn.count<string>('r.day').distinct().as('days'),
      eb.fn.sum<string>('r.messages').as('messages'),
      eb.fn.sum<string>(eb.case().when('r.dmarc_pass', '=', true).then(eb.ref('r.messages')).else(0).end()).as('passed'),
      eb.fn.min<string>('r.day').as('first_day'),
    ])
    .where('r.domain_id', '=', domainId)
    .where('r.day', '>=', sinceDay)
    .where('r.authenticated', '=', true)
    .executeTakeFirst();
  return {
    days: Number(row?.days ?? 0),
    messages: Number(row?.messages ?? 0),
    passed: Number(row?.passed ?? 0),
    firstDay: row?.first_day ? dayText(row.first_day) : null,
  };
}

/** The latest journal entry (apply) of the domain with its connection: the connection the ramp publishes through on its own. */
export function findLatestApplyConnection(db: Kysely<Database>, accountId: number, domain: string): Promise<{ connection_id: number } | undefined> {
  return db
    .selectFrom('setup_applies')
    .innerJoin('dns_connections', 'dns_connections.id', 'setup_applies.connection_id')
    .select('setup_applies.connection_id')
    .where('setup_applies.account_id', '=', accountId)
    .where('setup_applies.domain', '=', domain)
    .where('setup_applies.kind', '=', 'apply')
    .where('dns_connections.deleted_at', 'is', null)
    .orderBy('setup_applies.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
