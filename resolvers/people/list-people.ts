import type { Context } from '../context.js';
import type { Role } from './users.js';
import { signedInPerson } from './signed-in-person.js';

export interface PersonListing {
  readonly userId: number;
  readonly email: string;
  readonly role: Role;
  readonly createdAt: Date;
}

export interface PendingInvitation {
  readonly email: string;
  readonly role: Role;
  readonly expiresAt: Date;
}

/** The people of the signed-in person's account (never another account's), oldest first. */
export async function listPeople(ctx: Context): Promise<PersonListing[]> {
  const { accountId } = await signedInPerson(ctx);
  const rows = await ctx.services.db
    .selectFrom('users')
    .select(['id', 'email', 'role', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ userId: r.id, email: r.email, role: r.role, createdAt: r.created_at }));
}

/** Invitations of the account not yet accepted and not expired, newest first. */
export async function listInvitations(ctx: Context): Promise<PendingInvitation[]> {
  const { accountId } = await signedInPerson(ctx);
  const rows = await ctx.services.db
    .selectFrom('user_tokens')
    .select(['email', 'role', 'expires_at'])
    .where('purpose', '=', 'invitation')
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', ctx.now())
    .orderBy('created_at', 'desc')
    .execute();
  return rows.flatMap((r) => (r.email !== null && r.role !== null ? [{ email: r.email, role: r.role, expiresAt: r.expires_at }] : []));
}
