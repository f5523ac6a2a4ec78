import { findAccountApiKey, listApiKeysWithMaker } from '../../db/api-keys.js';
import { findUserWithAccount } from '../../db/users.js';
import type { Context } from '../context.js';
import { ApiError } from '../api-error.js';
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
  }));
}

export async function createKeyForPerson(
  ctx: Context,
  input: { name: string; scopes: readonly string[] },
): Promise<{ keyId: number; key: string; scopes: Scope[] }> {
  const { accountId, userId, role } = await requirePermission(ctx, 'createKeys');
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) throw new ApiError(422, 'invalid_name', 'Give the key a name of 1 to 100 characters, saying where it is used.');
  const scopes = [...new Set(input.scopes)];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new ApiError(
      422,
      'invalid_scopes',
      `Scopes must be one or more of ${SCOPES.join(', ')}${unknown.length ? `; "${unknown.join('", "')}" is not one` : ''}.`,
    );
  }
  const valid = scopes.filter(isScope);
  // A key holds at most what its maker's role holds (docs/people.md): no member-made orders:place key.
  const beyond = valid.filter((s) => !roleMay(role, s));
  if (beyond.length > 0) {
    throw new ApiError(
      403,
      'scope_beyond_role',
      `As a ${role} you can give a key only ${scopesOfRole(role).join(', ')}; leave out ${beyond.join(', ')}, or ask an owner of your account to make that key.`,
      { role, scopes_allowed: scopesOfRole(role) },
    );
  }
  const { key, keyId } = await createApiKey(ctx.services.db, accountId, valid, {
    name,
    createdByUserId: userId,
    mode: ctx.services.keyMode ?? 'test',
  });
  return { keyId, key, scopes: valid };
}

export async function revokeKeyForPerson(ctx: Context, keyId: number): Promise<{ keyId: number; revoked: boolean }> {
  const { accountId, userId, role } = await requirePermission(ctx, 'revokeOwnKeys');
  // Another account's key is "no such key", never a hint that it exists.
  const owned = await findAccountApiKey(ctx.services.db, accountId, keyId);
  if (!owned) throw new ApiError(404, 'key_not_found', `There is no key ${keyId} on your account; list them with the apiKeys query.`);
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
