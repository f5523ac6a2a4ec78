import { insertSession, revokeSessionRow, revokeSessionsOfUser } from '../../db/sessions.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The cookie that carries a portal session. */
export const SESSION_COOKIE = 'svc_session';

/** A session lasts this long from sign-in; signing in again makes a new one (rotation). */
export const SESSION_LIFETIME_MS = 14 * 24 * 3600 * 1000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Starts a session for the user; the token goes to the cookie, only its hash to the database. */
export async function startSession(db: Kysely<Database>, userId: number, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await insertSession(db, { id: hashToken(token), user_id: userId, expires_at: expiresAt });
  return { token, expiresAt };
}

export async function revokeSession(db: Kysely<Database>, token: string): Promise<void> {
  await revokeSessionRow(db, hashToken(token), new Date());
}

/** Every session of a user ends (a password reset). */
export async function revokeUserSessions(db: Kysely<Database>, userId: number): Promise<void> {
  await revokeSessionsOfUser(db, userId, new Date());
}

/** Reads the session cookie's token from a Cookie header; null when absent or malformed. */
export function sessionTokenOf(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) {
      const value = rest.join('=');
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** Secure everywhere but plain-http localhost, where browsers would drop a Secure cookie. */
function secureFor(apiUrl: string): boolean {
  const url = new URL(apiUrl);
  return !(url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
}

export function sessionCookie(token: string, expiresAt: Date, apiUrl: string): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureFor(apiUrl) ? '; Secure' : ''}`;
}

export function clearedSessionCookie(apiUrl: string): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secureFor(apiUrl) ? '; Secure' : ''}`;
}
