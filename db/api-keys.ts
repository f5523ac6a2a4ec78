import type { Kysely } from 'kysely';
import type { Database, NewApiKey } from './schema.js';

export async function insertApiKey(db: Kysely<Database>, key: NewApiKey): Promise<number> {
  const row = await db.insertInto('api_keys').values(key).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The key by its id (revoked or not), on any account; undefined when unknown. */
export function findApiKey(db: Kysely<Database>, keyId: number): Promise<{ id: number; revoked_at: Date | null } | undefined> {
  return db.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', keyId).executeTakeFirst();
}

/** The account's keys (revoked too), oldest first. */
export function listApiKeys(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'prefix', 'scopes', 'created_at', 'last_used_at', 'revoked_at'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
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
      'api_keys.expires_at',
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

/** The account's keys (revoked too), oldest first, with their maker's address. */
export function listApiKeysWithMaker(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('api_keys')
    .leftJoin('users', 'users.id', 'api_keys.created_by_user_id')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.prefix',
      'api_keys.scopes',
      'api_keys.created_at',
      'api_keys.last_used_at',
      'api_keys.revoked_at',
      'api_keys.expires_at',
      'api_keys.rolled_to_key_id',
      'users.email',
    ])
    .where('api_keys.account_id', '=', accountId)
    .orderBy('api_keys.id')
    .execute();
}

export function findAccountApiKey(
  db: Kysely<Database>,
  accountId: number,
  keyId: number,
): Promise<{ id: number; created_by_user_id: number | null } | undefined> {
  return db.selectFrom('api_keys').select(['id', 'created_by_user_id']).where('id', '=', keyId).where('account_id', '=', accountId).executeTakeFirst();
}

/** Revokes the open keys the person made on the account; how many. */
export async function revokeApiKeysMadeBy(db: Kysely<Database>, accountId: number, userId: number, now: Date): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('created_by_user_id', '=', userId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The open keys the person made (on any account), with their scopes. */
export function listOpenApiKeysMadeBy(db: Kysely<Database>, userId: number): Promise<{ id: number; scopes: string }[]> {
  return db.selectFrom('api_keys').select(['id', 'scopes']).where('created_by_user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

export async function revokeApiKeys(db: Kysely<Database>, keyIds: readonly number[], now: Date): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: now }).where('id', 'in', keyIds).execute();
}

/** One key of the account, its row locked (FOR UPDATE) until the transaction ends; undefined when it is another account's or unknown. */
export function lockAccountApiKey(db: Kysely<Database>, accountId: number, keyId: number) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'scopes', 'created_by_user_id', 'revoked_at', 'expires_at', 'rolled_to_key_id'])
    .where('id', '=', keyId)
    .where('account_id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
}

/** Records that the key was rolled to `newKeyId` and stops at `expiresAt`. */
export async function markApiKeyRolled(db: Kysely<Database>, keyId: number, newKeyId: number, expiresAt: Date): Promise<void> {
  await db.updateTable('api_keys').set({ expires_at: expiresAt, rolled_to_key_id: newKeyId }).where('id', '=', keyId).execute();
}
