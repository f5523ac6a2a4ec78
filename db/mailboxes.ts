import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export async function insertMailboxes(
  db: Kysely<Database>,
  mailboxes: readonly { domain_id: number; first_name: string; last_name: string; local_part: string }[],
): Promise<void> {
  await db.insertInto('mailboxes').values(mailboxes).execute();
}
