import { insertAccount } from '../../db/accounts.js';
import { findUserIdByEmail, insertUser } from '../../db/users.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DomainError } from '../domain-error.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { giveDefaultPlans } from '../account/default-plans.js';
import type { DefaultPlan } from '../../config/settings.js';
import { giveReferralCode } from '../referrals/referral-code.js';
import { setAccountReferrer } from '../../db/referrals.js';

export type Role = 'owner' | 'member';

export function isRole(value: unknown): value is Role {
  return value === 'owner' || value === 'member';
}

/** E-mail addresses are compared lower-cased and trimmed; a shape check only (the mail is the proof). */
export function normalizeEmail(value: unknown): string {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!isEmailShape(email) || email.length > 254) {
    throw new DomainError('invalid_email', 'Send "email" as an e-mail address such as ana@example.com.');
  }
  return email;
}

export function requirePassword(value: unknown): string {
  const problem = passwordProblem(value);
  if (problem) throw new DomainError('invalid_password', problem);
  return String(value);
}

/** Adds a person to an account; a taken e-mail is a 409 (it belongs to one account only). */
export async function createUser(db: Kysely<Database>, accountId: number, email: string, password: string, role: Role): Promise<number> {
  const taken = await findUserIdByEmail(db, email);
  if (taken) throw emailTaken(email);
  const passwordHash = await hashPassword(password);
  try {
    return await insertUser(db, { account_id: accountId, email, password_hash: passwordHash, role });
  } catch {
    // Two sign-ups racing for one address: the unique index decides.
    throw emailTaken(email);
  }
}

function emailTaken(email: string): DomainError {
  return new DomainError('email_taken', `${email} already signs in to an account; sign in, or use "Forgot your password?" on the sign-in page.`);
}

/**
 * A confirmed self sign-up: a new account with its owner, the operator's default plans, its own
 * referral code and, when the sign-up carried one, its referrer, in one transaction (the password
 * came hashed with the sign-up).
 */
export async function signUp(
  db: Kysely<Database>,
  accountName: string,
  email: string,
  passwordHash: string,
  defaultPlans: readonly DefaultPlan[] = [],
  referredByAccountId: number | null = null,
): Promise<{ accountId: number; userId: number }> {
  const taken = await findUserIdByEmail(db, email);
  if (taken) throw emailTaken(email);
  return db.transaction().execute(async (trx) => {
    const accountId = await insertAccount(trx, accountName);
    // A new customer can order at once: the operator's default plans (DEFAULT_PLAN_SKUS).
    await giveDefaultPlans(trx, accountId, defaultPlans);
    await giveReferralCode(trx, accountId);
    if (referredByAccountId !== null) await setAccountReferrer(trx, accountId, referredByAccountId);
    const userId = await insertUser(trx, { account_id: accountId, email, password_hash: passwordHash, role: 'owner' });
    return { accountId, userId };
  });
}

/** local@domain, the domain holding a dot after its first character and before its last two, told without a backtracking pattern. */
function isEmailShape(email: string): boolean {
  const m = /^[^\s@]{1,64}@([^\s@]+)$/.exec(email);
  return m !== null && (m[1] ?? '').slice(1, -2).includes('.');
}
