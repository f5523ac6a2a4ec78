import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Drops the expired holds on these domains. */
export async function deleteExpiredDomainReservations(db: Kysely<Database>, domains: readonly string[], now: Date): Promise<void> {
  await db.deleteFrom('domain_reservations').where('domain', 'in', domains).where('expires_at', '<', now).execute();
}

/**
 * Holds the domains for this placement (or extends its own holds) until `expiresAt`, in sorted order
 * so two placements take their row locks in one order; the domains this placement now holds.
 */
export function holdDomainReservations(
  db: Kysely<Database>,
  domains: readonly string[],
  accountId: number,
  key: string,
  expiresAt: Date,
): Promise<{ domain: string }[]> {
  return db
    .insertInto('domain_reservations')
    .values([...domains].sort().map((domain) => ({ domain, account_id: accountId, idempotency_key: key, expires_at: expiresAt })))
    .onConflict((oc) =>
      oc
        .column('domain')
        .doUpdateSet({ expires_at: expiresAt })
        .where('domain_reservations.account_id', '=', accountId)
        .where('domain_reservations.idempotency_key', '=', key),
    )
    .returning('domain')
    .execute();
}

/** Drops every hold of this placement. */
export async function deleteDomainReservations(db: Kysely<Database>, accountId: number, key: string): Promise<void> {
  await db.deleteFrom('domain_reservations').where('account_id', '=', accountId).where('idempotency_key', '=', key).execute();
}

/** Which of these domains another account's placement holds now (an unexpired hold). */
export function findDomainsHeldByOthers(db: Kysely<Database>, domains: readonly string[], accountId: number, now: Date): Promise<{ domain: string }[]> {
  if (domains.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('domain_reservations')
    .select('domain')
    .where('domain', 'in', domains)
    .where('account_id', '!=', accountId)
    .where('expires_at', '>=', now)
    .orderBy('domain')
    .execute();
}
