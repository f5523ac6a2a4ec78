import { findAccountApiKey, listApiKeysWithMaker, lockAccountApiKey, markApiKeyRolled } from '../../db/api-keys.js';
import { findUserWithAccount } from '../../db/users.js';
import type { Context } from '../context.js';
import { DomainError } from '../domain-error.js';
import { createApiKey, revokeApiKey } from '../auth/api-keys.js';
import { isScope, SCOPES, type Scope } from '../auth/scopes.js';
import type { Role } from './users.js';
import { signedInPerson } from './signed-in-person.js';
import { requirePermission, roleMay, roleRefusal, scopesOfRole } from './permissions.js';

export interface ApiKeyListing {
  readonly keyId: number;
  readonly name: string | null;
  readonly prefix: string;
  readonly scopes: readonly string[];
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly createdBy: string | null;
  readonly revokedAt: Date | null;
  /** When the key stops (chosen when made, or set by a roll); null: never. */
  readonly expiresAt: Date | null;
  /** The key a roll made to replace this one. */
  readonly rolledToKeyId: number | null;
}

export async function listApiKeys(ctx: Context): Promise<ApiKeyListing[]> {
  const { accountId } = await requirePermission(ctx, 'read');
  const rows = await listApiKeysWithMaker(ctx.services.db, accountId);
  return rows.map((r) => ({
    keyId: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes.split(',').filter(isScope),
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    createdBy: r.email,
    revokedAt: r.revoked_at,
    expiresAt: r.expires_at,
    rolledToKeyId: r.rolled_to_key_id,
  }));
}

export async function createKeyForPerson(
  ctx: Context,
  input: { name: string; scopes: readonly string[]; expiresAt?: Date | null | undefined },
  now: Date = new Date(),
): Promise<NewKey> {
  const { accountId, userId, role } = await requirePermission(ctx, 'createKeys');
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) throw new DomainError('invalid_name', 'Give the key a name of 1 to 100 characters, saying where it is used.');
  const scopes = [...new Set(input.scopes)];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new DomainError(
      'invalid_scopes',
      `Scopes must be one or more of ${SCOPES.join(', ')}${unknown.length ? `; "${unknown.join('", "')}" is not one` : ''}.`,
    );
  }
  const valid = scopes.filter(isScope);
  // A key holds at most what its maker's role holds (docs/people.md): no member-made orders:place key.
  const beyond = valid.filter((s) => !roleMay(role, s));
  if (beyond.length > 0) {
    throw new DomainError(
      'scope_beyond_role',
      `As a ${role} you can give a key only ${scopesOfRole(role).join(', ')}; leave out ${beyond.join(', ')}, or ask an owner of your account to make that key.`,
      { role, scopes_allowed: scopesOfRole(role) },
    );
  }
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null) checkExpiry(expiresAt, now);
  const { key, keyId } = await createApiKey(ctx.services.db, accountId, valid, {
    name,
    createdByUserId: userId,
    mode: ctx.services.keyMode ?? 'test',
    expiresAt,
  });
  return { keyId, key, scopes: valid, expiresAt };
}

export interface NewKey {
  readonly keyId: number;
  readonly key: string;
  readonly scopes: Scope[];
  readonly expiresAt: Date | null;
}

/** The longest a key may be given to live, and a roll's longest grace period (docs/people.md, "Keys"). */
const MAX_KEY_LIFETIME_DAYS = 3 * 365;
export const MAX_ROLL_GRACE_HOURS = 7 * 24;

function checkExpiry(expiresAt: Date, now: Date): void {
  const latest = new Date(now.getTime() + MAX_KEY_LIFETIME_DAYS * 86_400_000);
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= now.getTime() || expiresAt > latest) {
    throw new DomainError(
      'invalid_expiry',
      `Give expiresAt as a time after now and before ${latest.toISOString().slice(0, 10)} (at most ${MAX_KEY_LIFETIME_DAYS / 365} years), or leave it out for a key that does not expire.`,
    );
  }
}

export interface RolledKey extends NewKey {
  readonly previousKeyId: number;
  /** When the rolled key stops: now plus the grace period (or its own earlier expiry). */
  readonly previousKeyExpiresAt: Date;
}

/**
 * Rolls a key: a new secret with the same name and scopes, and the old key kept working for the grace
 * period the person picks (0 to 168 hours) so the places that use it can be changed, then refused as
 * an expired key. Who may roll a key is who may revoke it. The old row is locked, so two rolls of one
 * key make one new key and the second is told which.
 */
export async function rollKeyForPerson(ctx: Context, keyId: number, graceHours: number, now: Date = new Date()): Promise<RolledKey> {
  const { accountId, userId, role } = await requirePermission(ctx, 'revokeOwnKeys');
  if (!Number.isInteger(graceHours) || graceHours < 0 || graceHours > MAX_ROLL_GRACE_HOURS) {
    throw new DomainError(
      'invalid_grace_period',
      `Give graceHours as a whole number of hours from 0 (the old key stops now) to ${MAX_ROLL_GRACE_HOURS} (a week).`,
    );
  }
  return ctx.services.db.transaction().execute(async (trx) => {
    const old = await lockAccountApiKey(trx, accountId, keyId);
    if (!old) throw new DomainError('key_not_found', `There is no key ${keyId} on your account; list them with the apiKeys query.`);
    if (old.created_by_user_id !== userId && !roleMay(role, 'revokeAnyKey')) throw roleRefusal(role, 'revokeAnyKey');
    if (old.rolled_to_key_id !== null) {
      throw new DomainError('key_already_rolled', `Key ${keyId} was already rolled to key ${old.rolled_to_key_id}; roll that key instead.`, {
        rolled_to_key_id: old.rolled_to_key_id,
      });
    }
    if (old.revoked_at !== null || (old.expires_at !== null && old.expires_at.getTime() <= now.getTime())) {
      throw new DomainError('key_not_active', `Key ${keyId} is revoked or expired, so there is nothing to roll; make a new key with createApiKey.`);
    }
    const scopes = old.scopes.split(',').filter(isScope);
    const beyond = scopes.filter((s) => !roleMay(role, s));
    if (beyond.length > 0) {
      throw new DomainError(
        'scope_beyond_role',
        `Key ${keyId} holds ${beyond.join(', ')}, which a ${role} cannot give a key; ask an owner of your account to roll it.`,
        { role, scopes_allowed: scopesOfRole(role) },
      );
    }
    const { key, keyId: newKeyId } = await createApiKey(trx, accountId, scopes, {
      name: old.name,
      createdByUserId: userId,
      mode: ctx.services.keyMode ?? 'test',
    });
    const graceEnd = new Date(now.getTime() + graceHours * 3_600_000);
    const previousKeyExpiresAt = old.expires_at !== null && old.expires_at < graceEnd ? old.expires_at : graceEnd;
    await markApiKeyRolled(trx, keyId, newKeyId, previousKeyExpiresAt);
    return { keyId: newKeyId, key, scopes, expiresAt: null, previousKeyId: keyId, previousKeyExpiresAt };
  });
}

export async function revokeKeyForPerson(ctx: Context, keyId: number): Promise<{ keyId: number; revoked: boolean }> {
  const { accountId, userId, role } = await requirePermission(ctx, 'revokeOwnKeys');
  // Another account's key is "no such key", never a hint that it exists.
  const owned = await findAccountApiKey(ctx.services.db, accountId, keyId);
  if (!owned) throw new DomainError('key_not_found', `There is no key ${keyId} on your account; list them with the apiKeys query.`);
  if (owned.created_by_user_id !== userId && !roleMay(role, 'revokeAnyKey')) throw roleRefusal(role, 'revokeAnyKey');
  await revokeApiKey(ctx.services.db, keyId);
  return { keyId, revoked: true };
}

export interface Viewer {
  readonly userId: number;
  readonly email: string;
  readonly role: Role;
  readonly accountId: number;
  readonly accountName: string;
}

/** The signed-in person and their account, for the portal's header and its role-dependent pages. */
export async function findViewer(ctx: Context): Promise<Viewer> {
  const { userId } = await signedInPerson(ctx);
  const row = await findUserWithAccount(ctx.services.db, userId);
  return { userId: row.id, email: row.email, role: row.role, accountId: row.account_id, accountName: row.name };
}
