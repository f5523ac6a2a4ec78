import type { Insertable, Kysely } from 'kysely';
import type { Database, UserTokenTable } from './schema.js';

type Purpose = 'password_reset' | 'invitation' | 'sign_up';

export async function insertUserToken(db: Kysely<Database>, token: Insertable<UserTokenTable>): Promise<void> {
  await db.insertInto('user_tokens').values(token).execute();
}

/** Deletes the address's unused invitations to the account; how many there were. */
export async function deletePendingInvitations(db: Kysely<Database>, accountId: number, email: string): Promise<number> {
  const result = await db
    .deleteFrom('user_tokens')
    .where('purpose', '=', 'invitation')
    .where('account_id', '=', accountId)
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Marks the token used if it is of this purpose, unused and not expired; what it was for, or undefined. */
export function markUserTokenUsed(db: Kysely<Database>, tokenId: string, purpose: Purpose, now: Date) {
  return db
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('id', '=', tokenId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'account_id', 'email', 'role', 'account_name', 'password_hash', 'referred_by_account_id'])
    .executeTakeFirst();
}

/** Marks the user's unused reset links used. */
export async function endPasswordResetTokens(db: Kysely<Database>, userId: number, now: Date): Promise<void> {
  await db
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('purpose', '=', 'password_reset')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** The newest unused invitation of the address to the account (expired or not). */
export function findLatestInvitation(db: Kysely<Database>, accountId: number, email: string): Promise<{ role: 'owner' | 'member' | null } | undefined> {
  return db
    .selectFrom('user_tokens')
    .select('role')
    .where('purpose', '=', 'invitation')
    .where('account_id', '=', accountId)
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** A working (unused, unexpired) invitation by its token's hash, with the account's name and the inviter's address. */
export function findOpenInvitation(db: Kysely<Database>, tokenId: string, now: Date) {
  return db
    .selectFrom('user_tokens')
    .innerJoin('accounts', 'accounts.id', 'user_tokens.account_id')
    .leftJoin('users', 'users.id', 'user_tokens.invited_by_user_id')
    .select(['accounts.name', 'users.email as inviter', 'user_tokens.email', 'user_tokens.role', 'user_tokens.expires_at'])
    .where('user_tokens.id', '=', tokenId)
    .where('user_tokens.purpose', '=', 'invitation')
    .where('user_tokens.used_at', 'is', null)
    .where('user_tokens.expires_at', '>', now)
    .executeTakeFirst();
}

/** The account's working invitations, newest first, with the inviter's address. */
export function listOpenInvitations(db: Kysely<Database>, accountId: number, now: Date) {
  return db
    .selectFrom('user_tokens')
    .leftJoin('users', 'users.id', 'user_tokens.invited_by_user_id')
    .select(['user_tokens.email', 'user_tokens.role', 'user_tokens.expires_at', 'users.email as inviter'])
    .where('user_tokens.purpose', '=', 'invitation')
    .where('user_tokens.account_id', '=', accountId)
    .where('user_tokens.used_at', 'is', null)
    .where('user_tokens.expires_at', '>', now)
    .orderBy('user_tokens.created_at', 'desc')
    .execute();
}
