import { markEventFannedOut } from '../../db/events.js';
import { findWebhookDelivery, insertWebhookDelivery, reopenWebhookDelivery } from '../../db/webhook-deliveries.js';
import { findWebhookEndpoint } from '../../db/webhook-endpoints.js';
import type { WebhookDeliveryStatus } from '../../db/status-values.js';
import { DomainError, operation, sentence } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { recordEvent } from '../events/record-event.js';

export interface QueuedDelivery {
  readonly deliveryId: number;
  readonly eventId: string;
  readonly status: WebhookDeliveryStatus;
}

async function queue(ctx: Context, deliveryId: number): Promise<void> {
  const jobs = ctx.services.jobs;
  if (!jobs) throw new DomainError('jobs_unavailable', 'Deliveries are not running on this service right now; try again in a minute.');
  await jobs.deliveryQueued(deliveryId);
}

async function ownedEndpointId(ctx: Context, accountId: number, webhookId: number): Promise<number> {
  const row = await findWebhookEndpoint(ctx.services.db, accountId, webhookId);
  if (!row) throw new DomainError('webhook_not_found', sentence`You have no webhook endpoint ${webhookId}; ${operation('list_webhooks')} lists yours.`);
  return row.id;
}

/**
 * "Send a test event": records a webhook.test event (it shows in GET /v1/events) and delivers it to
 * this endpoint only, whatever event types the endpoint is subscribed to, signed like any other.
 * The delivery goes through the queue; GET /v1/webhooks/{id}/deliveries shows its attempts.
 */
export async function sendTestWebhook(webhookId: number, ctx: Context): Promise<QueuedDelivery> {
  const accountId = await requireAccountId(ctx);
  const endpointId = await ownedEndpointId(ctx, accountId, webhookId);
  const db = ctx.services.db;
  const eventId = (await recordEvent(db, accountId, 'webhook.test', { webhook_id: endpointId, message: 'A test event sent from your account: reply 2xx.' }))!;
  const deliveryId = await insertWebhookDelivery(db, endpointId, eventId, new Date());
  // A test event goes to this endpoint alone: it is never fanned out.
  await markEventFannedOut(db, eventId, new Date());
  await queue(ctx, deliveryId);
  return { deliveryId, eventId, status: 'pending' };
}

/**
 * "Resend": one more attempt at a delivered or failed delivery, as a new attempt on the same delivery
 * (same event id, so a receiver that already handled it can drop it). A pending delivery is already
 * being tried: 409. If this attempt fails it is retried as usual while the delivery is under
 * WEBHOOK_RETRY_FOR_MS old; after that, one attempt per resend.
 */
export async function resendWebhookDelivery(webhookId: number, deliveryId: number, ctx: Context): Promise<QueuedDelivery> {
  const accountId = await requireAccountId(ctx);
  const endpointId = await ownedEndpointId(ctx, accountId, webhookId);
  const db = ctx.services.db;
  const row = await findWebhookDelivery(db, endpointId, deliveryId);
  if (!row)
    throw new DomainError(
      'delivery_not_found',
      sentence`Endpoint ${webhookId} has no delivery ${deliveryId}; ${operation('list_webhook_deliveries', { webhook_id: webhookId })} lists them.`,
    );
  const reopened = await reopenWebhookDelivery(db, row.id, new Date());
  if (!reopened) throw new DomainError('delivery_pending', `Delivery ${deliveryId} is already being tried; wait for its attempt to finish, then resend it.`);
  await queue(ctx, row.id);
  return { deliveryId: row.id, eventId: row.event_id, status: 'pending' };
}
