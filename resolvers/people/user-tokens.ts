import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { hashToken, newToken } from './sessions.js';
import type { Role } from './users.js';

/** A reset link works for an hour; an invitation for a week. Each works once. */
const LIFETIME_MS = { password_reset: 3600_000, invitation: 7 * 24 * 3600_000 } as const;

export async function issuePasswordReset(db: Kysely<Database>, userId: number): Promise<string> {
  const token = newToken();
  await db
    .insertInto('user_tokens')
    .values({ id: hashToken(token), purpose: 'password_reset', user_id: userId, expires_at: new Date(Date.now() + LIFETIME_MS.password_reset) })
    .execute();
  return token;
}

export async function issueInvitation(db: Kysely<Database>, accountId: number, email: string, role: Role): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + LIFETIME_MS.invitation);
  await db
    .insertInto('user_tokens')
    .values({ id: hashToken(token), purpose: 'invitation', account_id: accountId, email, role, expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

export interface UsedToken {
  readonly userId: number | null;
  readonly accountId: number | null;
  readonly email: string | null;
  readonly role: Role | null;
}

/**
 * Marks a token used and returns what it was for, or null when it is unknown, used, expired or for
 * another purpose. The conditional update makes it work once even when two requests race.
 */
export async function useToken(db: Kysely<Database>, purpose: 'password_reset' | 'invitation', token: unknown): Promise<UsedToken | null> {
  if (typeof token !== 'string' || token.length > 200) return null;
  const row = await db
    .updateTable('user_tokens')
    .set({ used_at: new Date() })
    .where('id', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning(['user_id', 'account_id', 'email', 'role'])
    .executeTakeFirst();
  return row ? { userId: row.user_id, accountId: row.account_id, email: row.email, role: row.role } : null;
}
