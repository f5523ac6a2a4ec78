import { findSessionWithUser } from '../../db/sessions.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Caller } from '../auth/api-keys.js';
import { scopesOfRole } from './permissions.js';
import { DomainError } from '../domain-error.js';
import { hashToken } from './sessions.js';

/**
 * The person behind a session cookie, or null for an unknown, revoked or expired session. Read on
 * every request, so signing out (or a password reset) ends the session at once on every instance.
 * A session holds its role's scopes (resolvers/people/permissions.ts) and is counted per user.
 */
export async function authenticateSession(db: Kysely<Database>, token: string, now = new Date()): Promise<Caller | null> {
  let row;
  try {
    row = await findSessionWithUser(db, hashToken(token));
  } catch {
    throw new DomainError('auth_unavailable', 'Sign-in checks are unavailable because the database cannot be reached; retry in a few seconds.', {
      retry_after: 5,
    });
  }
  if (!row || row.revoked_at !== null || new Date(row.expires_at).getTime() <= now.getTime()) return null;
  return {
    kind: 'session',
    accountId: row.account_id,
    keyId: null,
    userId: row.user_id,
    role: row.role,
    sessionId: hashToken(token),
    subject: `user:${row.user_id}`,
    scopes: scopesOfRole(row.role),
    limits: { readPerMinute: row.read_per_minute, changePerMinute: row.change_per_minute, ordersPerHour: row.orders_per_hour },
  };
}
