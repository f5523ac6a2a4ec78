import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findApiKeyByHash, insertApiKey, revokeApiKeyRow, touchApiKeyLastUsed } from '../../db/api-keys.js';
import { DomainError } from '../domain-error.js';
import { isScope, type Scope } from './scopes.js';
import type { AccountLimits } from '../limits/account-limits.js';

/**
 * Keys start with one of these so secret scanners (and people) recognise a leaked key: sk_test_ when
 * made in sandbox mode (no STRIPE_SECRET_KEY), sk_live_ otherwise, as Stripe's keys read.
 */
export const KEY_PREFIX = { live: 'sk_live_', test: 'sk_test_' } as const;
export type KeyMode = keyof typeof KEY_PREFIX;

/**
 * Who is calling: an API key, a person signed in to the portal (a session), or an assistant holding
 * an OAuth access token a person granted it (a token, on /mcp only). A session is a person and holds
 * its role's scopes; only a session may manage keys and users (SPEC 5.4). A token holds the scopes
 * its person chose, within their role.
 */
export interface Caller {
  readonly kind: 'key' | 'session' | 'token';
  readonly accountId: number;
  /** The key's id; null for a session. */
  readonly keyId: number | null;
  /** The signed-in person (or the person who granted a token); null for a key. */
  readonly userId: number | null;
  readonly role: 'owner' | 'member' | null;
  /** The session's id (the SHA-256 of its cookie's token), so a password change can keep it; null for a key. */
  readonly sessionId: string | null;
  /** What the allowances are counted against: `key:<id>`, `user:<id>` or `grant:<id>` (one connected assistant). */
  readonly subject: string;
  readonly scopes: readonly Scope[];
  /** The account's operator-set allowances (null fields: the defaults). */
  readonly limits: AccountLimits;
}

/** last_used_at is written at most this often per key, so reading does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new random key: the prefix plus 32 bytes of base64url. Only its hash is ever stored. */
/** `mode` is the service's (settings.keyMode): test with the sandbox processor, live with Stripe. */
export function generateKey(mode: KeyMode): string {
  return KEY_PREFIX[mode] + randomBytes(32).toString('base64url');
}

export interface NewKeyOptions {
  readonly name?: string | null;
  readonly createdByUserId?: number | null;
  readonly mode?: KeyMode;
  /** When the key stops working; absent or null: never. */
  readonly expiresAt?: Date | null;
}

export async function createApiKey(
  db: Kysely<Database> | Transaction<Database>,
  accountId: number,
  scopes: readonly Scope[],
  options: NewKeyOptions = {},
): Promise<{ key: string; keyId: number }> {
  const key = generateKey(options.mode ?? 'test');
  const keyId = await insertApiKey(db, {
    account_id: accountId,
    prefix: key.slice(0, KEY_PREFIX.live.length + 6),
    key_hash: hashKey(key),
    scopes: scopes.join(','),
    name: options.name ?? null,
    created_by_user_id: options.createdByUserId ?? null,
    expires_at: options.expiresAt ?? null,
  });
  return { key, keyId };
}

export async function revokeApiKey(db: Kysely<Database>, keyId: number): Promise<boolean> {
  return revokeApiKeyRow(db, keyId, new Date());
}

/** Reads the bearer token from an Authorization header value; null when absent or not a bearer. */
export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Finds the caller for a key, or null for an unknown, revoked or expired key (the same answer for all
 * three, so a refused key reveals nothing). The lookup is by SHA-256 hash, so the database never compares secrets;
 * the stored hash is compared once more in constant time. Read on every request: revocation takes
 * effect on the next one, on every instance. A database that cannot be reached is a 503.
 */
export async function authenticateKey(db: Kysely<Database>, key: string): Promise<Caller | null> {
  if (!(key.startsWith(KEY_PREFIX.live) || key.startsWith(KEY_PREFIX.test)) || key.length > 200) return null;
  const hash = hashKey(key);
  let row;
  try {
    row = await findApiKeyByHash(db, hash);
  } catch {
    throw new DomainError('auth_unavailable', 'Sign-in checks are unavailable because the database cannot be reached; retry in a few seconds.', {
      retry_after: 5,
    });
  }
  if (!row || row.revoked_at !== null) return null;
  if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  const now = Date.now();
  if (row.expires_at !== null && new Date(row.expires_at).getTime() <= now) return null;
  if (row.last_used_at === null || now - new Date(row.last_used_at).getTime() >= LAST_USED_RESOLUTION_MS) {
    // Not awaited: the request does not wait on a bookkeeping write, and a failed one is retried on
    // the key's next use. The condition keeps racing instances to one write per minute.
    const stale = new Date(now - LAST_USED_RESOLUTION_MS);
    void touchApiKeyLastUsed(db, row.id, new Date(now), stale).catch(() => undefined);
  }
  return {
    kind: 'key',
    accountId: row.account_id,
    keyId: row.id,
    userId: null,
    role: null,
    sessionId: null,
    subject: `key:${row.id}`,
    scopes: row.scopes.split(',').filter(isScope),
    limits: { readPerMinute: row.read_per_minute, changePerMinute: row.change_per_minute, ordersPerHour: row.orders_per_hour },
  };
}
