import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The columns one authorization server record is stored and found by (db/schema.ts, OAuthRecordTable). */
export interface OAuthRecordRow {
  readonly model: string;
  readonly id: string;
  readonly payload: string;
  readonly grant_id: string | null;
  readonly uid: string | null;
  readonly user_code: string | null;
  readonly client_id: string | null;
  readonly user_id: number | null;
  readonly expires_at: Date | null;
}

/** Writes the record, replacing the one with the same model and id (oidc-provider saves records again as they change). */
export async function upsertOAuthRecord(db: Kysely<Database>, row: OAuthRecordRow): Promise<void> {
  await db
    .insertInto('oauth_records')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['model', 'id']).doUpdateSet({
        payload: row.payload,
        grant_id: row.grant_id,
        uid: row.uid,
        user_code: row.user_code,
        client_id: row.client_id,
        user_id: row.user_id,
        expires_at: row.expires_at,
      }),
    )
    .execute();
}

const RECORD_COLUMNS = ['payload', 'expires_at', 'consumed_at'] as const;

export function findOAuthRecord(db: Kysely<Database>, model: string, id: string) {
  return db.selectFrom('oauth_records').select(RECORD_COLUMNS).where('model', '=', model).where('id', '=', id).executeTakeFirst();
}

export function findOAuthRecordByUid(db: Kysely<Database>, model: string, uid: string) {
  return db.selectFrom('oauth_records').select(RECORD_COLUMNS).where('model', '=', model).where('uid', '=', uid).executeTakeFirst();
}

export function findOAuthRecordByUserCode(db: Kysely<Database>, model: string, userCode: string) {
  return db.selectFrom('oauth_records').select(RECORD_COLUMNS).where('model', '=', model).where('user_code', '=', userCode).executeTakeFirst();
}

export async function deleteOAuthRecord(db: Kysely<Database>, model: string, id: string): Promise<void> {
  await db.deleteFrom('oauth_records').where('model', '=', model).where('id', '=', id).execute();
}

/** Marks a code or refresh token used: oidc-provider refuses a consumed one (and revokes its grant when it comes back). */
export async function consumeOAuthRecord(db: Kysely<Database>, model: string, id: string, now: Date): Promise<void> {
  await db.updateTable('oauth_records').set({ consumed_at: now }).where('model', '=', model).where('id', '=', id).execute();
}

/** Deletes every record of a grant: the grant itself and its codes, access and refresh tokens. The number deleted. */
export async function deleteOAuthRecordsOfGrant(db: Kysely<Database>, grantId: string): Promise<number> {
  const result = await db.deleteFrom('oauth_records').where('grant_id', '=', grantId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes everything the authorization server holds for a person: their grants, codes, access and
 * refresh tokens, sessions and interactions (every record naming them; clients name no one). The
 * number deleted.
 */
export async function deleteOAuthRecordsOfUser(db: Kysely<Database>, userId: number): Promise<number> {
  const result = await db.deleteFrom('oauth_records').where('user_id', '=', userId).where('model', '<>', 'Client').executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes records that expired before `before` (the sweep's clean-up). The number deleted. */
export async function deleteExpiredOAuthRecords(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('oauth_records').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes the clients registered before `registeredBefore` that nothing refers to (no grant, session,
 * code or token names them): registration is open to anyone (RFC 7591), so clients registered and
 * never used would otherwise be kept for ever. A client whose grants expired and were swept goes too.
 */
export async function deleteUnusedOAuthClients(db: Kysely<Database>, registeredBefore: Date): Promise<number> {
  const result = await db
    .deleteFrom('oauth_records as client')
    .where('client.model', '=', 'Client')
    .where('client.created_at', '<', registeredBefore)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('oauth_records as used').select('used.id').whereRef('used.client_id', '=', 'client.id').where('used.model', '<>', 'Client')),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * An access token (by the SHA-256 of its value) with its grant, its person and the account's
 * allowances; undefined when the token, its grant or its person is gone.
 */
export function findAccessTokenWithGrant(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('oauth_records as token')
    .innerJoin('oauth_records as grant', (join) => join.onRef('grant.id', '=', 'token.grant_id').on('grant.model', '=', 'Grant'))
    .innerJoin('users', 'users.id', 'token.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select([
      'token.payload',
      'token.expires_at',
      'token.grant_id',
      'grant.expires_at as grant_expires_at',
      'grant.last_used_at as grant_last_used_at',
      'users.id as user_id',
      'users.role',
      'users.account_id',
      'accounts.read_per_minute',
      'accounts.change_per_minute',
      'accounts.orders_per_hour',
    ])
    .where('token.model', '=', 'AccessToken')
    .where('token.id', '=', tokenHash)
    .executeTakeFirst();
}

/** Writes a grant's last_used_at unless another instance wrote it after `stale` (one write per grant and minute). */
export async function touchOAuthGrantLastUsed(db: Kysely<Database>, grantId: string, now: Date, stale: Date): Promise<void> {
  await db
    .updateTable('oauth_records')
    .set({ last_used_at: now })
    .where('model', '=', 'Grant')
    .where('id', '=', grantId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', stale)]))
    .execute();
}

/** One of a person's grants, or undefined when it is not theirs (or gone). */
export function findOAuthGrantOfUser(db: Kysely<Database>, userId: number, grantId: string) {
  return db.selectFrom('oauth_records').select(['id']).where('model', '=', 'Grant').where('id', '=', grantId).where('user_id', '=', userId).executeTakeFirst();
}

/** A person's grants (the assistants they connected), newest first, each with its client's record. */
export function listOAuthGrantsOfUser(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('oauth_records as grant')
    .leftJoin('oauth_records as client', (join) => join.onRef('client.id', '=', 'grant.client_id').on('client.model', '=', 'Client'))
    .select(['grant.id', 'grant.payload', 'grant.created_at', 'grant.last_used_at', 'grant.expires_at', 'client.payload as client_payload'])
    .where('grant.model', '=', 'Grant')
    .where('grant.user_id', '=', userId)
    .orderBy('grant.created_at', 'desc')
    .execute();
}
