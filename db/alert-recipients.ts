import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The account's extra alert addresses, in address order. */
export async function listAlertRecipientEmails(db: Kysely<Database>, accountId: number): Promise<string[]> {
  const rows = await db.selectFrom('alert_recipients').select('email').where('account_id', '=', accountId).orderBy('email').execute();
  return rows.map((r) => r.email);
}

/** Replaces the account's addresses with `emails`: run it in a transaction. */
export async function replaceAlertRecipients(db: Kysely<Database>, accountId: number, emails: readonly string[]): Promise<void> {
  await db.deleteFrom('alert_recipients').where('account_id', '=', accountId).execute();
  if (emails.length > 0)
    await db
      .insertInto('alert_recipients')
      .values(emails.map((email) => ({ account_id: accountId, email })))
      .execute();
}
