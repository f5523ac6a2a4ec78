import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The domain's key, public half only (the private half stays sealed in the table). */
export function findDomainDkimKey(db: Kysely<Database>, domainId: number): Promise<{ selector: string; public_key: string } | undefined> {
  return db.selectFrom('domain_dkim_keys').select(['selector', 'public_key']).where('domain_id', '=', domainId).executeTakeFirst();
}

/** Inserts the domain's key unless it has one already (the first one made is kept). */
export async function insertDomainDkimKeyOnce(
  db: Kysely<Database>,
  key: { domain_id: number; selector: string; public_key: string; private_key_sealed: string },
): Promise<void> {
  await db
    .insertInto('domain_dkim_keys')
    .values(key)
    .onConflict((oc) => oc.column('domain_id').doNothing())
    .execute();
}

export async function hasDomainDkimKey(db: Kysely<Database>, domainId: number): Promise<boolean> {
  const row = await db.selectFrom('domain_dkim_keys').select('domain_id').where('domain_id', '=', domainId).executeTakeFirst();
  return row !== undefined;
}
