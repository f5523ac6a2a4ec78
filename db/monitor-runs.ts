import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export function findMonitorRun(db: Kysely<Database>, domainId: number, slot: string): Promise<{ slot: string } | undefined> {
  return db.selectFrom('monitor_runs').select('slot').where('domain_id', '=', domainId).where('slot', '=', slot).executeTakeFirst();
}

/** The domain's latest run's findings. */
export function findLastMonitorRun(db: Kysely<Database>, domainId: number): Promise<{ grade: string | null; listed_on: string; auth: string } | undefined> {
  return db
    .selectFrom('monitor_runs')
    .select(['grade', 'listed_on', 'auth'])
    .where('domain_id', '=', domainId)
    .orderBy('ran_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Records the run unless one is recorded for this domain and slot; undefined then. */
export function insertMonitorRun(
  db: Kysely<Database>,
  run: { domain_id: number; slot: string; grade: string | null; listed_on: string; auth: string; dns_questions: number },
): Promise<{ slot: string } | undefined> {
  return db
    .insertInto('monitor_runs')
    .values(run)
    .onConflict((oc) => oc.columns(['domain_id', 'slot']).doNothing())
    .returning('slot')
    .executeTakeFirst();
}
