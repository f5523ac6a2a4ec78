import { listOpenApiKeysMadeBy, revokeApiKeys, revokeApiKeysMadeBy } from '../../db/api-keys.js';
import { revokeSessionsOfUser } from '../../db/sessions.js';
import { deleteUser, lockUsersOfAccount, setUserRole } from '../../db/users.js';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Context } from '../context.js';
import { DomainError } from '../domain-error.js';
import type { Role } from './users.js';
import { requirePermission, roleMay } from './permissions.js';
import { dropPendingInvitations } from './user-tokens.js';

interface AccountPerson {
  readonly id: number;
  readonly email: string;
  readonly role: Role;
}

/**
 * The account's people, locked until the transaction ends, and the one asked for. Locking every row
 * of the account makes two owners demoting or removing each other at once take turns, so the second
 * sees the first's change and the account never loses its last owner.
 */
async function lockPeople(trx: Transaction<Database>, accountId: number, userId: number): Promise<{ target: AccountPerson; owners: number }> {
  const people = await lockUsersOfAccount(trx, accountId);
  const target = people.find((p) => p.id === userId);
  // Another account's person is "no such person", never a hint that they exist.
  if (!target) throw new DomainError('person_not_found', `There is no person ${userId} on your account; list them with the people query.`);
  return { target, owners: people.filter((p) => p.role === 'owner').length };
}

function lastOwner(email: string, doing: string): DomainError {
  return new DomainError('last_owner', `${email} is the account's last owner and cannot be ${doing}; make another person an owner first.`);
}

export interface RemovedPerson {
  readonly userId: number;
  readonly email: string;
  readonly removed: boolean;
  readonly sessionsEnded: number;
  readonly keysRevoked: number;
}

/**
 * An owner removes a person from the account, in one transaction:
 * 1. the account's last owner stays (409);
 * 2. the person's sessions end and every key they made is revoked (a removed person's programs stop
 *    on their next request); the owner is told how many of each;
 * 3. any invitation still pending for their address on this account is dropped, so no old link lets
 *    them back in;
 * 4. the person's row goes (their reset links with it).
 */
export async function removePerson(ctx: Context, userId: number): Promise<RemovedPerson> {
  const me = await requirePermission(ctx, 'removePeople');
  return ctx.services.db.transaction().execute(async (trx) => {
    const { target, owners } = await lockPeople(trx, me.accountId, userId);
    if (target.role === 'owner' && owners <= 1) throw lastOwner(target.email, 'removed');
    const sessionsEnded = await revokeSessionsOfUser(trx, target.id, ctx.now());
    const keysRevoked = await revokeApiKeysMadeBy(trx, me.accountId, target.id, ctx.now());
    await dropPendingInvitations(trx, me.accountId, target.email);
    await deleteUser(trx, target.id);
    return { userId: target.id, email: target.email, removed: true, sessionsEnded, keysRevoked };
  });
}

/** An owner makes a person an owner or a member; the new role applies from the person's next request. */
export async function changeRole(ctx: Context, userId: number, role: Role): Promise<{ userId: number; email: string; role: Role; createdAt: Date }> {
  const me = await requirePermission(ctx, 'changeRoles');
  return ctx.services.db.transaction().execute(async (trx) => {
    const { target, owners } = await lockPeople(trx, me.accountId, userId);
    if (target.role === 'owner' && role !== 'owner' && owners <= 1) throw lastOwner(target.email, 'made a member');
    // Keys the person made that hold scopes the new role lacks are revoked: a key never holds more than its maker's role.
    const made = await listOpenApiKeysMadeBy(trx, target.id);
    const beyond = made.filter((k) => k.scopes.split(',').some((s) => (s === 'read' || s === 'write' || s === 'orders:place') && !roleMay(role, s)));
    if (beyond.length > 0) {
      await revokeApiKeys(
        trx,
        beyond.map((k) => k.id),
        ctx.now(),
      );
    }
    const row = await setUserRole(trx, target.id, role);
    return { userId: row.id, email: row.email, role: row.role, createdAt: row.created_at };
  });
}
