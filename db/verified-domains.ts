import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The account's verified domains by name (only those among `domains` when given). */
export function listVerifiedDomains(db: Kysely<Database>, accountId: number, domains?: readonly string[]): Promise<{ domain: string; verified_at: Date }[]> {
  let query = db.selectFrom('verified_domains').select(['domain', 'verified_at']).where('account_id', '=', accountId);
  if (domains) query = query.where('domain', 'in', domains);
  return query.orderBy('domain').execute();
}

/** Records the domains as verified (a domain verified already keeps its first date). */
export async function insertVerifiedDomains(db: Kysely<Database>, accountId: number, domains: readonly string[], now: Date): Promise<void> {
  await db
    .insertInto('verified_domains')
    .values(domains.map((domain) => ({ account_id: accountId, domain, verified_at: now })))
    .onConflict((oc) => oc.columns(['account_id', 'domain']).doNothing())
    .execute();
}
