import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The order's settings by its subscription id, or undefined when it is another account's or unknown. */
export function findAccountOrderSettings(db: Kysely<Database>, accountId: number, subscriptionId: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'subscription_id', 'sequencer', 'monitor_reconnection', 'monitor_deliverability', 'status'])
    .where('subscription_id', '=', subscriptionId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function setOrderSequencer(db: Kysely<Database>, orderId: number, sequencer: string | null): Promise<void> {
  await db.updateTable('orders').set({ sequencer }).where('id', '=', orderId).execute();
}

export function setOrderMonitors(db: Kysely<Database>, orderId: number, set: { monitor_reconnection?: boolean; monitor_deliverability?: boolean }) {
  return db
    .updateTable('orders')
    .set(set)
    .where('id', '=', orderId)
    .returning(['subscription_id', 'sequencer', 'monitor_reconnection', 'monitor_deliverability'])
    .executeTakeFirstOrThrow();
}
