import type { TaskFunction } from './job-types.js';

/**
 * Turns one event into its deliveries: one per webhook endpoint of the account subscribed to its
 * type, and one alert e-mail per recipient. The unique (endpoint, event) pair and the job keys make
 * a repeated fan-out add nothing.
 */
export const fanOutEvent: TaskFunction = async (payload: { eventId: string }, env) => {
  const { db } = env;
  const event = await db.selectFrom('events').select(['id', 'account_id', 'type', 'fanned_out_at']).where('id', '=', payload.eventId).executeTakeFirst();
  if (!event || event.fanned_out_at) return;
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('account_id', '=', event.account_id)
    .where('deleted_at', 'is', null)
    .execute();
  for (const endpoint of endpoints) {
    const types = endpoint.events.split(',');
    if (!types.includes('*') && !types.includes(event.type)) continue;
    const delivery =
      (await db
        .insertInto('webhook_deliveries')
        .values({ endpoint_id: endpoint.id, event_id: event.id, status: 'pending', next_attempt_at: new Date() })
        .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
        .returning('id')
        .executeTakeFirst()) ??
      (await db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).where('event_id', '=', event.id).executeTakeFirst());
    if (delivery) await env.enqueue('deliver_webhook', { deliveryId: delivery.id }, { key: `deliver:${delivery.id}:1` });
  }
  // The account's people, and any extra addresses the operator added (alert_recipients), each once.
  const [people, extra] = await Promise.all([
    db.selectFrom('users').select('email').where('account_id', '=', event.account_id).execute(),
    db.selectFrom('alert_recipients').select('email').where('account_id', '=', event.account_id).execute(),
  ]);
  const recipients = new Set([...people, ...extra].map((r) => r.email.toLowerCase()));
  for (const email of recipients) await env.enqueue('send_alert_email', { eventId: event.id, email }, { key: `alert:${event.id}:${email}` });
  await db.updateTable('events').set({ fanned_out_at: new Date() }).where('id', '=', event.id).execute();
};
