import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findAccessTokenWithGrant, touchOAuthGrantLastUsed } from '../../db/oauth-records.js';
import { hashOAuthId } from '../oauth/oauth-adapter.js';
import { DomainError } from '../domain-error.js';
import { scopesOfRole } from '../people/permissions.js';
import { isScope } from './scopes.js';
import type { Caller } from './api-keys.js';

/** A grant's last_used_at is written at most this often, as a key's is. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The caller behind an OAuth access token the account listener's authorization server issued for the
 * MCP endpoint (docs/mcp.md, "Sign-in"), or null for an unknown, expired or revoked one, one whose
 * grant was revoked in the portal, or whose person was removed (their rows go with them). Read on
 * every request, as keys are. The token holds the scopes the person chose at consent, and never more
 * than the person's role holds now (a person made a member loses orders:place at once). It is counted
 * per grant (one connected assistant) at the account's allowances, as a key is.
 */
export async function authenticateAccessToken(db: Kysely<Database>, token: string, now = new Date()): Promise<Caller | null> {
  if (token.length < 20 || token.length > 200 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  let row;
  try {
    row = await findAccessTokenWithGrant(db, hashOAuthId(token));
  } catch {
    throw new DomainError('auth_unavailable', 'Sign-in checks are unavailable because the database cannot be reached; retry in a few seconds.', {
      retry_after: 5,
    });
  }
  if (!row || row.grant_id === null) return null;
  const at = now.getTime();
  if (row.expires_at !== null && new Date(row.expires_at).getTime() <= at) return null;
  if (row.grant_expires_at !== null && new Date(row.grant_expires_at).getTime() <= at) return null;
  const granted = scopeOf(row.payload);
  if (granted === null) return null;
  const ofRole = scopesOfRole(row.role);
  if (row.grant_last_used_at === null || at - new Date(row.grant_last_used_at).getTime() >= LAST_USED_RESOLUTION_MS) {
    // Not awaited, as for keys: bookkeeping never holds the request up.
    void touchOAuthGrantLastUsed(db, row.grant_id, now, new Date(at - LAST_USED_RESOLUTION_MS)).catch(() => undefined);
  }
  return {
    kind: 'token',
    accountId: row.account_id,
    keyId: null,
    userId: row.user_id,
    role: row.role,
    sessionId: null,
    subject: `grant:${row.grant_id}`,
    scopes: granted
      .split(' ')
      .filter(isScope)
      .filter((scope) => ofRole.includes(scope)),
    limits: { readPerMinute: row.read_per_minute, changePerMinute: row.change_per_minute, ordersPerHour: row.orders_per_hour },
  };
}

/** The token's scope; null when the record is not an access token for a resource (no audience). */
function scopeOf(payload: string): string | null {
  const value: unknown = JSON.parse(payload);
  if (typeof value !== 'object' || value === null) return null;
  const scope: unknown = Reflect.get(value, 'scope');
  const audience: unknown = Reflect.get(value, 'aud');
  if (typeof scope !== 'string' || typeof audience !== 'string' || !audience.endsWith('/mcp')) return null;
  return scope;
}
