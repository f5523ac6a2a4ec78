import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The e-mail addresses of the account's people, in no set order. */
export async function listUserEmails(db: Kysely<Database>, accountId: number): Promise<string[]> {
  const rows = await db.selectFrom('users').select('email').where('account_id', '=', accountId).execute();
  return rows.map((r) => r.email);
}
