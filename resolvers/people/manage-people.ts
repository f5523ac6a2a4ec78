import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Context } from '../context.js';
import { ApiError } from '../api-error.js';
import type { Role } from './users.js';
import { signedInOwner } from './signed-in-person.js';

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
  const people = await trx.selectFrom('users').select(['id', 'email', 'role']).where('account_id', '=', accountId).orderBy('id').forUpdate().execute();
  const target = people.find((p) => p.id === userId);
  // Another account's person is "no such person", never a hint that they exist.
  if (!target) throw new ApiError(404, 'person_not_found', `There is no person ${userId} on your account; list them with the people query.`);
  return { target, owners: people.filter((p) => p.role === 'owner').length };
}

function lastOwner(email: string, doing: string): ApiError {
  return new ApiError(409, 'last_owner', `${email} is the account's last owner and cannot be ${doing}; make another person an owner first.`);
}

/** An owner removes a person from the account; the person's sessions end with them (sessions go with the user row). */
export async function removePerson(ctx: Context, userId: number): Promise<{ userId: number; email: string; removed: boolean }> {
  const me = await signedInOwner(ctx, 'remove people');
  return ctx.services.db.transaction().execute(async (trx) => {
    const { target, owners } = await lockPeople(trx, me.accountId, userId);
    if (target.role === 'owner' && owners <= 1) throw lastOwner(target.email, 'removed');
    await trx.updateTable('sessions').set({ revoked_at: ctx.now() }).where('user_id', '=', target.id).where('revoked_at', 'is', null).execute();
    // Keys the person made stay the account's (created_by becomes null); their sessions and reset links go.
    await trx.deleteFrom('users').where('id', '=', target.id).execute();
    return { userId: target.id, email: target.email, removed: true };
  });
}

/** An owner makes a person an owner or a member; the new role applies from the person's next request. */
export async function changeRole(ctx: Context, userId: number, role: Role): Promise<{ userId: number; email: string; role: Role; createdAt: Date }> {
  const me = await signedInOwner(ctx, "change people's roles");
  return ctx.services.db.transaction().execute(async (trx) => {
    const { target, owners } = await lockPeople(trx, me.accountId, userId);
    if (target.role === 'owner' && role !== 'owner' && owners <= 1) throw lastOwner(target.email, 'made a member');
    const row = await trx
      .updateTable('users')
      .set({ role })
      .where('id', '=', target.id)
      .returning(['id', 'email', 'role', 'created_at'])
      .executeTakeFirstOrThrow();
    return { userId: row.id, email: row.email, role: row.role, createdAt: row.created_at };
  });
}
