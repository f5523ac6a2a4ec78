import { findWebhookDelivery, listRecentWebhookDeliveries, listWebhookAttempts } from '../../db/webhook-deliveries.js';
import { invalidCursor, numericCursor, pageOf, readPageArgs, type Page, type PageArgs } from '../pagination.js';
import {
  countWebhookEndpoints,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  markWebhookEndpointDeleted,
  updateWebhookEndpoint,
} from '../../db/webhook-endpoints.js';
import type { WebhookDeliveryStatus } from '../../db/status-values.js';
import { randomBytes } from 'node:crypto';
import { DomainError, operation, sentence } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { EVENT_TYPES, isEventType } from '../events/event-types.js';
import { vetEndpoint } from './endpoint-address.js';

/** Endpoints per account: enough for every real setup, bounded so one account cannot fan out without end. */
const MAX_ENDPOINTS = 10;

function tooMany(): DomainError {
  return new DomainError('too_many_webhooks', `An account may have ${MAX_ENDPOINTS} webhook endpoints; delete one you no longer use first.`);
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
    throw new DomainError(
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
  if (!url || url.length > 2000)
    throw new DomainError('invalid_url', 'Send "url": the https:// address (at most 2000 characters) that should receive the events.');
  const vetted = await vetEndpoint(url, ctx.services.jobs?.allowPrivateEndpoints ?? false);
  if (!vetted.ok) throw new DomainError('endpoint_refused', vetted.detail);
  return vetted.url.toString();
}

function checkDescription(description: string | null | undefined): string | null {
  if (description === undefined || description === null) return null;
  if (description.length > 200) throw new DomainError('invalid_description', 'The description is at most 200 characters; shorten it.');
  return description;
}

function shape(row: { id: number; url: string; events: string; description: string | null; created_at: Date }, secret: string | null = null): WebhookEndpoint {
  return { webhookId: row.id, url: row.url, events: row.events.split(','), description: row.description, createdAt: row.created_at, secret };
}

async function ownedEndpoint(ctx: Context, accountId: number, webhookId: number) {
  const row = await findWebhookEndpoint(ctx.services.db, accountId, webhookId);
  if (!row) throw new DomainError('webhook_not_found', sentence`You have no webhook endpoint ${webhookId}; ${operation('list_webhooks')} lists yours.`);
  return row;
}

export async function listWebhooks(ctx: Context): Promise<WebhookEndpoint[]> {
  const accountId = await requireAccountId(ctx);
  const rows = await listWebhookEndpoints(ctx.services.db, accountId);
  return rows.map((r) => shape(r));
}

/** Registers an endpoint; the answer carries its signing secret, shown this once. */
export async function createWebhook(input: WebhookInput, ctx: Context): Promise<WebhookEndpoint> {
  const accountId = await requireAccountId(ctx);
  const url = await checkUrl(input.url, ctx);
  const events = checkEvents(input.events);
  const description = checkDescription(input.description);
  const db = ctx.services.db;
  if ((await countWebhookEndpoints(db, accountId)) >= MAX_ENDPOINTS) throw tooMany();
  const secret = `whsec_${randomBytes(24).toString('hex')}`;
  // The count above answers the usual case with a sentence; parallel creates are held by the
  // database (a trigger that locks the account's row and counts: migration 2026_11_27_0900).
  const row = await insertWebhookEndpoint(db, { account_id: accountId, url, secret, events, description }).catch((error: Error) => {
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
    throw new DomainError('nothing_to_change', 'Send at least one of "url", "events" or "description".');
  }
  const set: { url?: string; events?: string; description?: string | null } = {};
  if (input.url !== undefined) set.url = await checkUrl(input.url, ctx);
  if (input.events !== undefined) set.events = checkEvents(input.events);
  if (input.description !== undefined) set.description = checkDescription(input.description);
  const row = await updateWebhookEndpoint(ctx.services.db, webhookId, set);
  return shape(row);
}

/** Stops deliveries to the endpoint; pending ones are marked failed at their next try. */
export async function deleteWebhook(webhookId: number, ctx: Context): Promise<{ webhookId: number; deleted: true }> {
  const accountId = await requireAccountId(ctx);
  await ownedEndpoint(ctx, accountId, webhookId);
  await markWebhookEndpointDeleted(ctx.services.db, webhookId, new Date());
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

/** The newest deliveries to one endpoint (at most 100), each with its attempts (the deprecated GraphQL webhookDeliveries). */
export async function listWebhookDeliveries(webhookId: number, ctx: Context): Promise<WebhookDelivery[]> {
  const accountId = await requireAccountId(ctx);
  await ownedEndpoint(ctx, accountId, webhookId);
  return withAttempts(ctx, await listRecentWebhookDeliveries(ctx.services.db, webhookId));
}

/**
 * One page of the deliveries to one of the caller's endpoints, newest first, each with its attempts:
 * `first`/`limit` 1-100 (default 10), `after`/`starting_after` the delivery_id of the last delivery
 * of the previous page (a delivery to this endpoint).
 */
export async function listWebhookDeliveriesPage(webhookId: number, args: PageArgs, ctx: Context): Promise<Page<WebhookDelivery>> {
  const accountId = await requireAccountId(ctx);
  await ownedEndpoint(ctx, accountId, webhookId);
  const request = readPageArgs(args);
  const db = ctx.services.db;
  let afterId: number | null = null;
  if (request.after !== null) {
    afterId = numericCursor(request.after);
    if (afterId === null || !(await findWebhookDelivery(db, webhookId, afterId)))
      throw invalidCursor('the delivery_id of a delivery to this endpoint', request.after);
  }
  const rows = await listRecentWebhookDeliveries(db, webhookId, { limit: request.limit + 1, afterId });
  return pageOf(await withAttempts(ctx, rows), request, (d) => String(d.deliveryId));
}

async function withAttempts(ctx: Context, rows: Awaited<ReturnType<typeof listRecentWebhookDeliveries>>): Promise<WebhookDelivery[]> {
  const attempts =
    rows.length === 0
      ? []
      : await listWebhookAttempts(
          ctx.services.db,
          rows.map((r) => r.id),
        );
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
