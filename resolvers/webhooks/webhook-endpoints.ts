import type { WebhookDeliveryStatus } from '../../db/status-values.js';
import { randomBytes } from 'node:crypto';
import { ApiError, badRequest } from '../api-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { EVENT_TYPES, isEventType } from '../events/event-types.js';
import { vetEndpoint } from './endpoint-address.js';

/** Endpoints per account: enough for every real setup, bounded so one account cannot fan out without end. */
const MAX_ENDPOINTS = 10;

function tooMany(): ApiError {
  return new ApiError(409, 'too_many_webhooks', `An account may have ${MAX_ENDPOINTS} webhook endpoints; delete one you no longer use first.`);
}

export interface WebhookEndpoint {
  readonly webhookId: number;
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  readonly createdAt: Date;
  /** Only in the answer that creates the endpoint: the signing secret is never shown again. */
  readonly secret: string | null;
}

export interface WebhookInput {
  readonly url?: string | null;
  readonly events?: readonly string[] | null;
  readonly description?: string | null;
}

function checkEvents(events: readonly string[] | null | undefined): string {
  if (!events || events.length === 0) return '*';
  const unknown = events.filter((e) => e !== '*' && !isEventType(e));
  if (unknown.length) {
    throw badRequest(
      'unknown_event_type',
      `${unknown
        .slice(0, 3)
        .map((e) => `"${e.slice(0, 40)}"`)
        .join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not an event type; send any of ${EVENT_TYPES.join(', ')}, or "*" for all.`,
      { allowed: EVENT_TYPES },
    );
  }
  return events.includes('*') ? '*' : [...new Set(events)].join(',');
}

async function checkUrl(url: string | null | undefined, ctx: Context): Promise<string> {
  if (!url || url.length > 2000) throw badRequest('invalid_url', 'Send "url": the https:// address (at most 2000 characters) that should receive the events.');
  const vetted = await vetEndpoint(url, ctx.services.jobs?.allowPrivateEndpoints ?? false);
  if (!vetted.ok) throw new ApiError(422, 'endpoint_refused', vetted.detail);
  return vetted.url.toString();
}

function checkDescription(description: string | null | undefined): string | null {
  if (description === undefined || description === null) return null;
  if (description.length > 200) throw badRequest('invalid_description', 'The description is at most 200 characters; shorten it.');
  return description;
}

function shape(row: { id: number; url: string; events: string; description: string | null; created_at: Date }, secret: string | null = null): WebhookEndpoint {
  return { webhookId: row.id, url: row.url, events: row.events.split(','), description: row.description, createdAt: row.created_at, secret };
}

async function ownedEndpoint(ctx: Context, accountId: number, webhookId: number) {
  const row = await ctx.services.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'events', 'description', 'created_at'])
    .where('id', '=', webhookId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, 'webhook_not_found', `You have no webhook endpoint ${webhookId}; GET /v1/webhooks lists yours.`);
  return row;
}

export async function listWebhooks(ctx: Context): Promise<WebhookEndpoint[]> {
  const accountId = await requireAccountId(ctx);
  const rows = await ctx.services.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'events', 'description', 'created_at'])
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => shape(r));
}

/** Registers an endpoint; the answer carries its signing secret, shown this once. */
export async function createWebhook(input: WebhookInput, ctx: Context): Promise<WebhookEndpoint> {
  const accountId = await requireAccountId(ctx);
  const url = await checkUrl(input.url, ctx);
  const events = checkEvents(input.events);
  const description = checkDescription(input.description);
  const db = ctx.services.db;
  const count = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(count?.n ?? 0) >= MAX_ENDPOINTS) throw tooMany();
  const secret = `whsec_${randomBytes(24).toString('hex')}`;
  // The count above answers the usual case with a sentence; parallel creates are held by the
  // database (a trigger that locks the account's row and counts: migration 2026_11_27_0900).
  const row = await db
    .insertInto('webhook_endpoints')
    .values({ account_id: accountId, url, secret, events, description })
    .returning(['id', 'url', 'events', 'description', 'created_at'])
    .executeTakeFirstOrThrow()
    .catch((error: Error) => {
      if (String(error.message).includes('webhook_endpoint_cap')) throw tooMany();
      throw error;
    });
  return shape(row, secret);
}

/** Changes the address, the event types or the description; a field not sent is kept. */
export async function updateWebhook(webhookId: number, input: WebhookInput, ctx: Context): Promise<WebhookEndpoint> {
  const accountId = await requireAccountId(ctx);
  await ownedEndpoint(ctx, accountId, webhookId);
  if (input.url === undefined && input.events === undefined && input.description === undefined) {
    throw badRequest('nothing_to_change', 'Send at least one of "url", "events" or "description".');
  }
  const set: { url?: string; events?: string; description?: string | null } = {};
  if (input.url !== undefined) set.url = await checkUrl(input.url, ctx);
  if (input.events !== undefined) set.events = checkEvents(input.events);
  if (input.description !== undefined) set.description = checkDescription(input.description);
  const row = await ctx.services.db
    .updateTable('webhook_endpoints')
    .set(set)
    .where('id', '=', webhookId)
    .returning(['id', 'url', 'events', 'description', 'created_at'])
    .executeTakeFirstOrThrow();
  return shape(row);
}

/** Stops deliveries to the endpoint; pending ones are marked failed at their next try. */
export async function deleteWebhook(webhookId: number, ctx: Context): Promise<{ webhookId: number; deleted: true }> {
  const accountId = await requireAccountId(ctx);
  await ownedEndpoint(ctx, accountId, webhookId);
  await ctx.services.db.updateTable('webhook_endpoints').set({ deleted_at: new Date() }).where('id', '=', webhookId).execute();
  return { webhookId, deleted: true };
}

export interface WebhookAttempt {
  readonly attempt: number;
  readonly at: Date;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}
export interface WebhookDelivery {
  readonly deliveryId: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly status: WebhookDeliveryStatus;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
  readonly nextAttemptAt: Date | null;
  readonly attempts: readonly WebhookAttempt[];
}

/** The newest deliveries to one endpoint (at most 100), each with its attempts. */
export async function listWebhookDeliveries(webhookId: number, ctx: Context): Promise<WebhookDelivery[]> {
  const accountId = await requireAccountId(ctx);
  await ownedEndpoint(ctx, accountId, webhookId);
  const db = ctx.services.db;
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.event_id', 'e.type', 'd.status', 'd.created_at', 'd.delivered_at', 'd.next_attempt_at'])
    .where('d.endpoint_id', '=', webhookId)
    .orderBy('d.id', 'desc')
    .limit(100)
    .execute();
  const attempts =
    rows.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('attempt')
          .execute();
  return rows.map((r) => ({
    deliveryId: r.id,
    eventId: r.event_id,
    eventType: r.type,
    status: r.status,
    createdAt: r.created_at,
    deliveredAt: r.delivered_at,
    nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
    attempts: attempts
      .filter((a) => a.delivery_id === r.id)
      .map((a) => ({ attempt: a.attempt, at: a.at, statusCode: a.status_code, error: a.error, durationMs: a.duration_ms })),
  }));
}
