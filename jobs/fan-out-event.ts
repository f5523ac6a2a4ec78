import { listAlertRecipientEmails } from '../db/alert-recipients.js';
import { findEventForFanOut, markEventFannedOut } from '../db/events.js';
import { listUserEmails } from '../db/users.js';
import { ensureWebhookDelivery } from '../db/webhook-deliveries.js';
import { listWebhookSubscriptions } from '../db/webhook-endpoints.js';
import type { TaskFunction } from './job-types.js';

/**
 * Turns one event into its deliveries: one per webhook endpoint of the account subscribed to its
 * type, and one alert e-mail per recipient. The unique (endpoint, event) pair and the job keys make
 * a repeated fan-out add nothing.
 */
export const fanOutEvent: TaskFunction = async (payload: { eventId: string }, env) => {
  const { db } = env;
  const event = await findEventForFanOut(db, payload.eventId);
  if (!event || event.fanned_out_at) return;
  const endpoints = await listWebhookSubscriptions(db, event.account_id);
  for (const endpoint of endpoints) {
    const types = endpoint.events.split(',');
    if (!types.includes('*') && !types.includes(event.type)) continue;
    const deliveryId = await ensureWebhookDelivery(db, endpoint.id, event.id, new Date());
    if (deliveryId !== undefined) await env.enqueue('deliver_webhook', { deliveryId }, { key: `deliver:${deliveryId}:1` });
  }
  // The account's people, and any extra addresses the operator added (alert_recipients), each once.
  const [people, extra] = await Promise.all([listUserEmails(db, event.account_id), listAlertRecipientEmails(db, event.account_id)]);
  const recipients = new Set([...people, ...extra].map((email) => email.toLowerCase()));
  for (const email of recipients) await env.enqueue('send_alert_email', { eventId: event.id, email }, { key: `alert:${event.id}:${email}` });
  await markEventFannedOut(db, event.id, new Date());
};
