import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export function findAlertEmail(db: Kysely<Database>, eventId: string, email: string): Promise<{ email: string } | undefined> {
  return db.selectFrom('alert_emails').select('email').where('event_id', '=', eventId).where('email', '=', email).executeTakeFirst();
}

/** Records the mail sent (once per event and address). */
export async function insertAlertEmail(db: Kysely<Database>, eventId: string, email: string, transport: string): Promise<void> {
  await db
    .insertInto('alert_emails')
    .values({ event_id: eventId, email, transport })
    .onConflict((oc) => oc.columns(['event_id', 'email']).doNothing())
    .execute();
}
