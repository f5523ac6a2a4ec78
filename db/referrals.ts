import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, NewReferral, NewReferralEarning } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export function findReferral(db: Db, accountId: number) {
  return db.selectFrom('referrals').select(['code', 'payout_destination']).where('account_id', '=', accountId).executeTakeFirst();
}

/** The account whose referral code this is (codes are stored upper-case). */
export function findReferralByCode(db: Db, code: string) {
  return db.selectFrom('referrals').select(['account_id', 'code']).where('code', '=', code).executeTakeFirst();
}

/** The account's referral earnings, newest first. */
export function listReferralEarnings(db: Db, accountId: number) {
  return db
    .selectFrom('referral_earnings')
    .select(['referred_account', 'amount', 'currency', 'status', 'earned_at'])
    .where('account_id', '=', accountId)
    .orderBy('earned_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Inserts the account's referral row unless it has one; false when it had one already or the code is
 * taken by another account (the caller draws another).
 */
export async function insertReferralOnce(db: Db, referral: NewReferral): Promise<boolean> {
  const inserted = await db
    .insertInto('referrals')
    .values(referral)
    .onConflict((oc) => oc.doNothing())
    .returning('account_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function insertReferralEarnings(db: Db, earnings: readonly NewReferralEarning[]): Promise<void> {
  await db.insertInto('referral_earnings').values(earnings).execute();
}

/** Inserts the earning unless the referred account has earned its referrer one already; false then. */
export async function insertReferralEarningOnce(db: Db, earning: NewReferralEarning): Promise<boolean> {
  const inserted = await db
    .insertInto('referral_earnings')
    .values(earning)
    .onConflict((oc) => oc.column('referred_account_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Who referred the account, with the account's own name; undefined when no one did. */
export function findReferrerOf(db: Db, accountId: number) {
  return db
    .selectFrom('accounts')
    .select(['referred_by_account_id', 'name'])
    .where('id', '=', accountId)
    .where('referred_by_account_id', 'is not', null)
    .executeTakeFirst();
}

/** Records who referred the account. */
export async function setAccountReferrer(db: Db, accountId: number, referrerAccountId: number): Promise<void> {
  await db.updateTable('accounts').set({ referred_by_account_id: referrerAccountId }).where('id', '=', accountId).execute();
}

/** Whether the referred account has earned its referrer anything yet. */
export async function hasReferralEarningFor(db: Db, referredAccountId: number): Promise<boolean> {
  const row = await db.selectFrom('referral_earnings').select('id').where('referred_account_id', '=', referredAccountId).executeTakeFirst();
  return row !== undefined;
}

/** The account's first invoice with money paid on it (by paid time, then id), or undefined. */
export function findFirstPaidInvoice(db: Db, accountId: number) {
  return db
    .selectFrom('invoices')
    .select(['id', 'amount_paid', 'currency', 'paid_at'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'paid')
    .where('amount_paid', '>', 0)
    .orderBy(sql`coalesce(paid_at, issued_at)`)
    .orderBy('id')
    .executeTakeFirst();
}
