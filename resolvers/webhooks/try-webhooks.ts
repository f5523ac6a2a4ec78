import type { WebhookDeliveryStatus } from '../../db/status-values.js';
import { ApiError } from '../api-error.js';
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
  if (!jobs) throw new ApiError(503, 'jobs_unavailable', 'Deliveries are not running on this service right now; try again in a minute.');
  await jobs.deliveryQueued(deliveryId);
}

async function ownedEndpointId(ctx: Context, accountId: number, webhookId: number): Promise<number> {
  const row = await ctx.services.db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('id', '=', webhookId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, 'webhook_not_found', `You have no webhook endpoint ${webhookId}; GET /v1/webhooks lists yours.`);
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
  const delivery = await db
    .insertInto('webhook_deliveries')
    .values({ endpoint_id: endpointId, event_id: eventId, status: 'pending', next_attempt_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  // A test event goes to this endpoint alone: it is never fanned out.
  await db.updateTable('events').set({ fanned_out_at: new Date() }).where('id', '=', eventId).execute();
  await queue(ctx, delivery.id);
  return { deliveryId: delivery.id, eventId, status: 'pending' };
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
  const row = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'status'])
    .where('id', '=', deliveryId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
  if (!row)
    throw new ApiError(404, 'delivery_not_found', `Endpoint ${webhookId} has no delivery ${deliveryId}; GET /v1/webhooks/${webhookId}/deliveries lists them.`);
  const reopened = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: new Date() })
    .where('id', '=', row.id)
    .where('status', '!=', 'pending')
    .returning('id')
    .executeTakeFirst();
  if (!reopened) throw new ApiError(409, 'delivery_pending', `Delivery ${deliveryId} is already being tried; wait for its attempt to finish, then resend it.`);
  await queue(ctx, row.id);
  return { deliveryId: row.id, eventId: row.event_id, status: 'pending' };
}
