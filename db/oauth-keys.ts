import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Stores the value of a kind of key unless one is there already (the first instance to start wins). */
export async function insertOAuthKeyIfAbsent(db: Kysely<Database>, kind: string, value: string): Promise<void> {
  await db
    .insertInto('oauth_keys')
    .values({ kind, value })
    .onConflict((oc) => oc.column('kind').doNothing())
    .execute();
}

export async function findOAuthKey(db: Kysely<Database>, kind: string): Promise<string | undefined> {
  const row = await db.selectFrom('oauth_keys').select('value').where('kind', '=', kind).executeTakeFirst();
  return row?.value;
}
