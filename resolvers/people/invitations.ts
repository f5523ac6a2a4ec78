import { findLatestInvitation, findOpenInvitation } from '../../db/user-tokens.js';
import { findUserAccountByEmail, findUserWithAccount } from '../../db/users.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Context } from '../context.js';
import { DomainError } from '../domain-error.js';
import { dropPendingInvitations, INVITATION_DAYS, issueInvitation } from './user-tokens.js';
import { hashToken } from './sessions.js';
import { normalizeEmail, type Role } from './users.js';
import { sendPeopleMail } from './people-mail.js';
import { requirePermission } from './permissions.js';

export interface SentInvitation {
  readonly email: string;
  readonly role: Role;
  readonly expiresAt: Date;
  readonly expiresInDays: number;
  readonly invitedBy: string | null;
}

/**
 * An owner invites an address to the account as `role`:
 * 1. an address already on this account is a 409 (the owner sees the account's people anyway);
 * 2. any invitation the address still holds here is replaced, so only the newest link works;
 * 3. the e-mail names the account and the inviter. An address that signs in to another account gets
 *    no link but a note saying so, and the inviter's answer is the same as for any address: an
 *    invitation never tells the inviter that an address has an account elsewhere.
 */
export async function inviteUser(ctx: Context, rawEmail: string, role: Role): Promise<SentInvitation> {
  const me = await requirePermission(ctx, 'invitePeople');
  const email = normalizeEmail(rawEmail);
  return sendInvitation(ctx, me.accountId, me.userId, email, role);
}

/** An owner sends a pending (or expired) invitation again: a new link, valid 7 days from now; the old one stops working. */
export async function resendInvitation(ctx: Context, rawEmail: string): Promise<SentInvitation> {
  const me = await requirePermission(ctx, 'invitePeople');
  const email = normalizeEmail(rawEmail);
  const pending = await findLatestInvitation(ctx.services.db, me.accountId, email);
  if (!pending?.role) throw noInvitation(email);
  return sendInvitation(ctx, me.accountId, me.userId, email, pending.role);
}

/** An owner cancels an invitation: its link stops working at once. */
export async function cancelInvitation(ctx: Context, rawEmail: string): Promise<{ email: string; cancelled: boolean }> {
  const me = await requirePermission(ctx, 'invitePeople');
  const email = normalizeEmail(rawEmail);
  const dropped = await dropPendingInvitations(ctx.services.db, me.accountId, email);
  if (dropped === 0) throw noInvitation(email);
  return { email, cancelled: true };
}

function noInvitation(email: string): DomainError {
  return new DomainError(
    'invitation_not_found',
    `There is no pending invitation for ${email} on your account; list them with the invitations query, or invite the address.`,
  );
}

async function sendInvitation(ctx: Context, accountId: number, inviterId: number, email: string, role: Role): Promise<SentInvitation> {
  const { db, config, mailer } = ctx.services;
  const sender = await findUserWithAccount(db, inviterId);
  const holder = await findUserAccountByEmail(db, email);
  if (holder?.account_id === accountId)
    throw new DomainError('already_a_member', `${email} already signs in to your account; change their role in the people list instead.`);
  const { token, expiresAt } = await db.transaction().execute((trx) => issueInvitation(trx, { accountId, email, role, invitedByUserId: inviterId }));
  const apiUrl = config.apiUrl;
  const text = holder
    ? `${sender.email} invited you to join "${sender.name}" on ${apiUrl} as ${role}.\n\n` +
      'This address already signs in to another account, and an address belongs to one account only, so there is no link to accept. ' +
      `Sign in as usual at ${apiUrl}/portal/, or ask ${sender.email} to invite another of your addresses.\n`
    : `${sender.email} invited you to join "${sender.name}" on ${apiUrl} as ${role}.\n\n` +
      `Choose a password and join within ${INVITATION_DAYS} days:\n${apiUrl}/portal/accept-invitation?token=${token}\n\n` +
      `If you were not expecting this, ignore this message; the link stops working on its own.\n`;
  await sendPeopleMail(mailer, email, `${sender.email} invited you to ${sender.name}`, text, ctx.logIds);
  return { email, role, expiresAt, expiresInDays: INVITATION_DAYS, invitedBy: sender.email };
}

export interface InvitationPreview {
  readonly accountName: string;
  readonly invitedBy: string | null;
  readonly email: string;
  readonly role: Role;
  readonly expiresAt: Date;
}

/** What the accept page shows before the person chooses a password; null for an unknown, used, cancelled or expired link. */
export async function previewInvitation(db: Kysely<Database>, token: unknown, now = new Date()): Promise<InvitationPreview | null> {
  if (typeof token !== 'string' || token.length > 200) return null;
  const row = await findOpenInvitation(db, hashToken(token), now);
  if (!row?.email || !row.role) return null;
  return { accountName: row.name, invitedBy: row.inviter, email: row.email, role: row.role, expiresAt: row.expires_at };
}
