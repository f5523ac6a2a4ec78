import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export function findDomainVerificationToken(db: Kysely<Database>, accountId: number): Promise<{ token: string } | undefined> {
  return db.selectFrom('domain_verification_tokens').select('token').where('account_id', '=', accountId).executeTakeFirst();
}

/** The account holding this token, if any (the demo seed gives the public demo token to one account only). */
export function findDomainVerificationTokenHolder(db: Kysely<Database>, token: string): Promise<{ account_id: number } | undefined> {
  return db.selectFrom('domain_verification_tokens').select('account_id').where('token', '=', token).executeTakeFirst();
}

/** Stores the account's token unless it has one already. */
export async function insertDomainVerificationTokenOnce(db: Kysely<Database>, accountId: number, token: string): Promise<void> {
  await db
    .insertInto('domain_verification_tokens')
    .values({ account_id: accountId, token })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
}
