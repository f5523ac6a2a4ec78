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
  /** The e-mail of the owner who sent it; null once they are removed. */
  readonly invitedBy: string | null;
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
    .leftJoin('users', 'users.id', 'user_tokens.invited_by_user_id')
    .select(['user_tokens.email', 'user_tokens.role', 'user_tokens.expires_at', 'users.email as inviter'])
    .where('user_tokens.purpose', '=', 'invitation')
    .where('user_tokens.account_id', '=', accountId)
    .where('user_tokens.used_at', 'is', null)
    .where('user_tokens.expires_at', '>', ctx.now())
    .orderBy('user_tokens.created_at', 'desc')
    .execute();
  return rows.flatMap((r) => (r.email !== null && r.role !== null ? [{ email: r.email, role: r.role, expiresAt: r.expires_at, invitedBy: r.inviter }] : []));
}
