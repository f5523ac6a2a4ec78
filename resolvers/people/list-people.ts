import { listOpenInvitations } from '../../db/user-tokens.js';
import { listUsers } from '../../db/users.js';
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
  const rows = await listUsers(ctx.services.db, accountId);
  return rows.map((r) => ({ userId: r.id, email: r.email, role: r.role, createdAt: r.created_at }));
}

/** Invitations of the account not yet accepted and not expired, newest first. */
export async function listInvitations(ctx: Context): Promise<PendingInvitation[]> {
  const { accountId } = await signedInPerson(ctx);
  const rows = await listOpenInvitations(ctx.services.db, accountId, ctx.now());
  return rows.flatMap((r) => (r.email !== null && r.role !== null ? [{ email: r.email, role: r.role, expiresAt: r.expires_at, invitedBy: r.inviter }] : []));
}
