import type { Kysely } from 'kysely';
import type { Database, NewReferral, NewReferralEarning } from './schema.js';

export function findReferral(db: Kysely<Database>, accountId: number) {
  return db.selectFrom('referrals').select(['code', 'payout_destination']).where('account_id', '=', accountId).executeTakeFirst();
}

/** The account's referral earnings, newest first. */
export function listReferralEarnings(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('referral_earnings')
    .select(['referred_account', 'amount', 'currency', 'status', 'earned_at'])
    .where('account_id', '=', accountId)
    .orderBy('earned_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function insertReferral(db: Kysely<Database>, referral: NewReferral): Promise<void> {
  await db.insertInto('referrals').values(referral).execute();
}

export async function insertReferralEarnings(db: Kysely<Database>, earnings: readonly NewReferralEarning[]): Promise<void> {
  await db.insertInto('referral_earnings').values(earnings).execute();
}
