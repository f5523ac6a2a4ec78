import type { Kysely } from 'kysely';
import type { Database, NewApiKey } from './schema.js';

export async function insertApiKey(db: Kysely<Database>, key: NewApiKey): Promise<number> {
  const row = await db.insertInto('api_keys').values(key).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Marks the key revoked; false when it was unknown or already revoked. */
export async function revokeApiKeyRow(db: Kysely<Database>, keyId: number, now: Date): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The key with this SHA-256 hash (revoked or not) and its account's allowances. */
export function findApiKeyByHash(db: Kysely<Database>, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select([
      'api_keys.id',
      'api_keys.account_id',
      'api_keys.key_hash',
      'api_keys.scopes',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'accounts.read_per_minute',
      'accounts.change_per_minute',
      'accounts.orders_per_hour',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** Writes last_used_at unless another instance wrote it after `stale` (one write per key and minute). */
export async function touchApiKeyLastUsed(db: Kysely<Database>, keyId: number, now: Date, stale: Date): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', stale)]))
    .execute();
}
