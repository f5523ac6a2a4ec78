import { lockAccount } from '../../db/accounts.js';
import { deletePendingInvitations, endPasswordResetTokens, insertUserToken, markUserTokenUsed } from '../../db/user-tokens.js';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { hashToken, newToken } from './sessions.js';
import type { Role } from './users.js';

/** A reset link works for an hour; an invitation for a week; a sign-up's confirmation for a day. Each works once. */
const LIFETIME_MS = { password_reset: 3600_000, invitation: 7 * 24 * 3600_000, sign_up: 24 * 3600_000 } as const;
export const INVITATION_DAYS = 7;

export async function issuePasswordReset(db: Kysely<Database>, userId: number): Promise<string> {
  const token = newToken();
  await insertUserToken(db, {
    id: hashToken(token),
    purpose: 'password_reset',
    user_id: userId,
    expires_at: new Date(Date.now() + LIFETIME_MS.password_reset),
  });
  return token;
}

/**
 * A new invitation of `email` to the account, replacing any the address still holds there (one
 * invitation per address and account: the newest link is the only one that works).
 */
export async function issueInvitation(
  trx: Transaction<Database>,
  invitation: { accountId: number; email: string; role: Role; invitedByUserId: number },
): Promise<{ token: string; expiresAt: Date }> {
  // The account's row is locked so two owners inviting one address at once take turns: the second
  // sees and replaces the first, and the address never holds two working links.
  await lockAccount(trx, invitation.accountId);
  await dropPendingInvitations(trx, invitation.accountId, invitation.email);
  const token = newToken();
  const expiresAt = new Date(Date.now() + LIFETIME_MS.invitation);
  await insertUserToken(trx, {
    id: hashToken(token),
    purpose: 'invitation',
    account_id: invitation.accountId,
    email: invitation.email,
    role: invitation.role,
    invited_by_user_id: invitation.invitedByUserId,
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

/** Every unused invitation of `email` to the account ends (cancelled, replaced, or the person removed); how many. */
export async function dropPendingInvitations(db: Kysely<Database> | Transaction<Database>, accountId: number, email: string): Promise<number> {
  return deletePendingInvitations(db, accountId, email);
}

/** A sign-up waiting for its address to be confirmed: the account's name and the password's hash wait with it. */
export async function issueSignUp(
  db: Kysely<Database>,
  signUp: { email: string; accountName: string; passwordHash: string; referredByAccountId: number | null },
): Promise<string> {
  const token = newToken();
  await insertUserToken(db, {
    id: hashToken(token),
    purpose: 'sign_up',
    email: signUp.email,
    account_name: signUp.accountName,
    password_hash: signUp.passwordHash,
    referred_by_account_id: signUp.referredByAccountId,
    expires_at: new Date(Date.now() + LIFETIME_MS.sign_up),
  });
  return token;
}

export interface UsedToken {
  readonly userId: number | null;
  readonly accountId: number | null;
  readonly email: string | null;
  readonly role: Role | null;
  readonly accountName: string | null;
  readonly passwordHash: string | null;
  /** A sign-up's referrer: the account whose referral code it carried. */
  readonly referredByAccountId: number | null;
}

/**
 * Marks a token used and returns what it was for, or null when it is unknown, used, expired or for
 * another purpose. The conditional update makes it work once even when two requests race.
 */
export async function useToken(
  db: Kysely<Database> | Transaction<Database>,
  purpose: 'password_reset' | 'invitation' | 'sign_up',
  token: unknown,
): Promise<UsedToken | null> {
  if (typeof token !== 'string' || token.length > 200) return null;
  const row = await markUserTokenUsed(db, hashToken(token), purpose, new Date());
  return row
    ? {
        userId: row.user_id,
        accountId: row.account_id,
        email: row.email,
        role: row.role,
        accountName: row.account_name,
        passwordHash: row.password_hash,
        referredByAccountId: row.referred_by_account_id,
      }
    : null;
}

/** Every other outstanding reset link of the person ends: one used link is the only one that counted. */
export async function endResetLinks(db: Kysely<Database> | Transaction<Database>, userId: number): Promise<void> {
  await endPasswordResetTokens(db, userId, new Date());
}
