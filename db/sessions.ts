import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export async function insertSession(db: Kysely<Database>, session: { id: string; user_id: number; expires_at: Date }): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

/** Ends the session with this id (the SHA-256 of its token) if it is still open. */
export async function revokeSessionRow(db: Kysely<Database>, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Ends the user's open sessions, all but `keepSessionId` when given; the number ended. */
export async function revokeSessionsOfUser(db: Kysely<Database>, userId: number, now: Date, keepSessionId?: string | null): Promise<number> {
  let query = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The session with this id, its person and the account's allowances (revoked or expired ones too). */
export function findSessionWithUser(db: Kysely<Database>, sessionId: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select([
      'users.id as user_id',
      'users.account_id',
      'users.role',
      'sessions.expires_at',
      'sessions.revoked_at',
      'accounts.read_per_minute',
      'accounts.change_per_minute',
      'accounts.orders_per_hour',
    ])
    .where('sessions.id', '=', sessionId)
    .executeTakeFirst();
}
