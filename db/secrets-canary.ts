import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The sealed canary, or undefined before the first start that writes it. */
export async function findSecretsCanary(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db.selectFrom('secrets_canary').select('sealed').where('id', '=', 1).executeTakeFirst();
  return row?.sealed;
}

/** Writes the canary unless one is there (two instances starting at once: the first wins, both read it back). */
export async function insertSecretsCanaryIfAbsent(db: Kysely<Database>, sealed: string): Promise<void> {
  await db
    .insertInto('secrets_canary')
    .values({ id: 1, sealed })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Replaces the canary (a rotation), writing it when absent. */
export async function setSecretsCanary(db: Kysely<Database>, sealed: string): Promise<void> {
  await db
    .insertInto('secrets_canary')
    .values({ id: 1, sealed })
    .onConflict((oc) => oc.column('id').doUpdateSet({ sealed }))
    .execute();
}
