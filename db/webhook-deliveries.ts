import { sql, type Kysely } from 'kysely';
import type { WebhookDeliveryStatus } from './status-values.js';
import type { Database } from './schema.js';

export async function insertWebhookDelivery(db: Kysely<Database>, endpointId: number, eventId: string, now: Date): Promise<number> {
  const row = await db
    .insertInto('webhook_deliveries')
    .values({ endpoint_id: endpointId, event_id: eventId, status: 'pending', next_attempt_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The delivery of this event to this endpoint: inserted as pending, or the one already there (the
 * pair is unique, so a repeated fan-out adds nothing). Undefined only if it vanished in between.
 */
export async function ensureWebhookDelivery(db: Kysely<Database>, endpointId: number, eventId: string, now: Date): Promise<number | undefined> {
  const delivery =
    (await db
      .insertInto('webhook_deliveries')
      .values({ endpoint_id: endpointId, event_id: eventId, status: 'pending', next_attempt_at: now })
      .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst()) ??
    (await db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId).where('event_id', '=', eventId).executeTakeFirst());
  return delivery?.id;
}

export function findWebhookDelivery(
  db: Kysely<Database>,
  endpointId: number,
  deliveryId: number,
): Promise<{ id: number; event_id: string; status: string } | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'status'])
    .where('id', '=', deliveryId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
}

/** Sets a delivered or failed delivery pending again; false when it was pending already. */
export async function reopenWebhookDelivery(db: Kysely<Database>, deliveryId: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now })
    .where('id', '=', deliveryId)
    .where('status', '!=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The endpoint's deliveries, newest first (by id, as they were made), with their event's type: at
 * most `limit` (100 when not said), and with `afterId` only those made before that one.
 */
export function listRecentWebhookDeliveries(db: Kysely<Database>, endpointId: number, page?: { readonly limit: number; readonly afterId: number | null }) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.event_id', 'e.type', 'd.status', 'd.created_at', 'd.delivered_at', 'd.next_attempt_at'])
    .where('d.endpoint_id', '=', endpointId);
  const afterId = page?.afterId ?? null;
  if (afterId !== null) query = query.where('d.id', '<', afterId);
  return query
    .orderBy('d.id', 'desc')
    .limit(page?.limit ?? 100)
    .execute();
}

/** The delivery with its endpoint and event, its row locked (FOR UPDATE) for the claim's transaction. */
export function lockWebhookDeliveryForSending(db: Kysely<Database>, deliveryId: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('events as ev', 'ev.id', 'd.event_id')
    .select([
      'd.id',
      'd.status',
      'd.created_at',
      'e.url',
      'e.secret',
      'e.deleted_at',
      'e.account_id',
      'ev.id as event_id',
      'ev.type',
      'ev.data',
      'ev.created_at as event_created',
    ])
    .where('d.id', '=', deliveryId)
    .forUpdate('d')
    .executeTakeFirst();
}

export async function failWebhookDelivery(db: Kysely<Database>, deliveryId: number): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null }).where('id', '=', deliveryId).execute();
}

export async function setWebhookDeliveryAttempts(db: Kysely<Database>, deliveryId: number, attempts: number): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ attempts }).where('id', '=', deliveryId).execute();
}

/** Records the attempt's outcome on the delivery, if it is still pending at that attempt. */
export async function settleWebhookDelivery(
  db: Kysely<Database>,
  deliveryId: number,
  attempt: number,
  set: { status: WebhookDeliveryStatus; delivered_at: Date | null; next_attempt_at: Date | null },
): Promise<void> {
  await db.updateTable('webhook_deliveries').set(set).where('id', '=', deliveryId).where('attempts', '=', attempt).where('status', '=', 'pending').execute();
}

/** Every attempt of these deliveries, in attempt order. */
export function listWebhookAttempts(db: Kysely<Database>, deliveryIds: readonly number[]) {
  return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('attempt').execute();
}

export function findLastWebhookAttempt(db: Kysely<Database>, deliveryId: number): Promise<{ attempt: number; at: Date; finished_at: Date | null } | undefined> {
  return db
    .selectFrom('webhook_attempts')
    .select(['attempt', 'at', 'finished_at'])
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Closes an attempt a dead worker left open, its duration counted up to now (capped to an int). */
export async function closeInterruptedWebhookAttempt(db: Kysely<Database>, deliveryId: number, attempt: number, error: string): Promise<void> {
  await db
    .updateTable('webhook_attempts')
    .set({
      finished_at: new Date(),
      error,
      duration_ms: sql<number>`least(extract(epoch from now() - at) * 1000, 2147483647)::int`,
    })
    .where('delivery_id', '=', deliveryId)
    .where('attempt', '=', attempt)
    .execute();
}

/** The account's attempts claimed after `since` and not finished. */
export async function countWebhookAttemptsInFlight(db: Kysely<Database>, accountId: number, since: Date): Promise<number> {
  const row = await db
    .selectFrom('webhook_attempts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('finished_at', 'is', null)
    .where('at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Claims the attempt: its row, open (finished_at null), before anything is sent. */
export async function insertWebhookAttempt(db: Kysely<Database>, deliveryId: number, attempt: number, accountId: number): Promise<void> {
  await db
    .insertInto('webhook_attempts')
    .values({ delivery_id: deliveryId, attempt, account_id: accountId, status_code: null, error: null, duration_ms: 0, finished_at: null })
    .execute();
}

export async function finishWebhookAttempt(
  db: Kysely<Database>,
  deliveryId: number,
  attempt: number,
  outcome: { status_code: number | null; error: string | null; duration_ms: number; finished_at: Date },
): Promise<void> {
  await db.updateTable('webhook_attempts').set(outcome).where('delivery_id', '=', deliveryId).where('attempt', '=', attempt).execute();
}

/** Up to 500 pending deliveries whose next attempt was due before `before`. */
export function listOverdueWebhookDeliveries(db: Kysely<Database>, before: Date): Promise<{ id: number; attempts: number }[]> {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'attempts'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<', before)
    .limit(500)
    .execute();
}

/** How many deliveries are in each status (as key, n). */
export function countWebhookDeliveriesByStatus(db: Kysely<Database>): Promise<{ key: string; n: number }[]> {
  return db
    .selectFrom('webhook_deliveries')
    .select(['status as key', sql<number>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
}
