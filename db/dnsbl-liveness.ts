import type { Kysely } from 'kysely';
import type { Database, DnsblLivenessRow, NewDnsblLiveness } from './schema.js';

/** Every list's last probe (one row per list: a few dozen). */
export function findDnsblLiveness(db: Kysely<Database>): Promise<DnsblLivenessRow[]> {
  return db.selectFrom('dnsbl_liveness').selectAll().execute();
}

/** When the newest probe was written; null before the first. */
export async function findNewestDnsblProbe(db: Kysely<Database>): Promise<Date | null> {
  const row = await db
    .selectFrom('dnsbl_liveness')
    .select((eb) => eb.fn.max('probed_at').as('newest'))
    .executeTakeFirst();
  return row?.newest ? new Date(row.newest) : null;
}

/** Writes each list's probe over its last one, all in one statement. */
export async function saveDnsblLiveness(db: Kysely<Database>, rows: readonly NewDnsblLiveness[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('dnsbl_liveness')
    .values([...rows])
    .onConflict((oc) =>
      oc.column('list_id').doUpdateSet((eb) => ({
        zone: eb.ref('excluded.zone'),
        zone_digest: eb.ref('excluded.zone_digest'),
        alive: eb.ref('excluded.alive'),
        reason: eb.ref('excluded.reason'),
        probed_at: eb.ref('excluded.probed_at'),
      })),
    )
    .execute();
}
