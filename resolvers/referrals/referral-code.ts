import { randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { findReferral, findReferralByCode, insertReferralOnce } from '../../db/referrals.js';
import type { Database } from '../../db/schema.js';
import { DomainError } from '../domain-error.js';

type Db = Kysely<Database> | Transaction<Database>;

/** No 0/O, 1/I/L: a code read aloud or typed from paper comes out right. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
const CODE_SHAPE = /^[A-Z0-9-]{4,40}$/;

function drawCode(): string {
  return Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/**
 * The account's referral code, made now when it has none: the one way every account gets its code
 * (sign-up confirmation, admin create-account, the demo seed, and on first read for an account opened
 * before codes were given out). `code` names it (the demo seed's DEMO-<tag>); otherwise one is drawn,
 * and drawn again in the unlikely case another account holds it.
 */
export async function giveReferralCode(db: Db, accountId: number, named: { code?: string; payoutDestination?: string } = {}): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = named.code ?? drawCode();
    const inserted = await insertReferralOnce(db, { account_id: accountId, code, payout_destination: named.payoutDestination ?? null });
    if (inserted) return code;
    // Either the account has one already (a second call, or two requests at once), or the code is taken.
    const mine = await findReferral(db, accountId);
    if (mine) return mine.code;
    if (named.code) throw new Error(`referral code ${named.code} belongs to another account`);
  }
  throw new Error('could not draw a free referral code in five tries');
}

/**
 * The account a sign-up's `referral_code` names, or null when none was sent (absent, null or blank).
 * Case and surrounding spaces do not matter. An unknown code is refused, not ignored: the person
 * would otherwise believe they were referred.
 */
export async function referrerOfCode(db: Db, value: unknown): Promise<number | null> {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string')
    throw new DomainError('invalid_referral_code', 'Send "referral_code" as text, such as the code in the referral link (?ref=...), or leave it out.');
  const code = value.trim().toUpperCase();
  if (code === '') return null;
  const referral = CODE_SHAPE.test(code) ? await findReferralByCode(db, code) : undefined;
  if (!referral)
    throw new DomainError(
      'unknown_referral_code',
      `No account has the referral code "${code.slice(0, 40)}"; check it with the person who shared it, or clear the referral code to sign up without one.`,
    );
  return referral.account_id;
}
