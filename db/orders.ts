import { sql, type Kysely } from 'kysely';
import type { OrderStatus } from './status-values.js';
import type { Database, NewOrder } from './schema.js';

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

/**
 * The account's orders, newest first (ties by id, descending), with their plan and their domain and
 * mailbox counts (one query). With `page`: at most `limit` of them, and with `afterId` only those
 * after that order in this order (the cursor's time is compared in SQL, where it keeps its
 * microseconds, so orders made in the same instant are neither skipped nor repeated).
 */
export function listOrdersWithCounts(db: Kysely<Database>, accountId: number, page?: { readonly limit: number; readonly afterId: number | null }) {
  let query = db
    .selectFrom('orders')
    .innerJoin('plans', 'plans.id', 'orders.plan_id')
    .select([
      'orders.id',
      'orders.subscription_id',
      'orders.reference',
      'orders.status',
      'orders.quantity',
      'orders.unit_amount',
      'orders.currency',
      'orders.interval',
      'orders.sequencer',
      'orders.monitor_reconnection',
      'orders.monitor_deliverability',
      'orders.created_at',
      'plans.sku',
      'plans.product',
    ])
    .select((eb) => [
      eb.selectFrom('domains').whereRef('domains.order_id', '=', 'orders.id').select(sql<number>`count(*)::int`.as('n')).as('domain_count'),
      eb
        .selectFrom('mailboxes')
        .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
        .whereRef('domains.order_id', '=', 'orders.id')
        .select(sql<number>`count(*)::int`.as('n'))
        .as('mailbox_count'),
    ])
    .where('orders.account_id', '=', accountId);
  const afterId = page?.afterId ?? null;
  if (afterId !== null) {
    const cursorTime = db.selectFrom('orders as c').select('c.created_at').where('c.id', '=', afterId);
    query = query.where((eb) =>
      eb.or([eb('orders.created_at', '<', cursorTime), eb.and([eb('orders.created_at', '=', cursorTime), eb('orders.id', '<', afterId)])]),
    );
  }
  query = query.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc');
  return page ? query.limit(page.limit).execute() : query.execute();
}

export async function countAccountOrders(db: Kysely<Database>, accountId: number): Promise<number> {
  const row = await db.selectFrom('orders').select(sql<string>`count(*)`.as('n')).where('account_id', '=', accountId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether the order is the account's (a page cursor must be). */
export async function isAccountOrder(db: Kysely<Database>, accountId: number, orderId: number): Promise<boolean> {
  const row = await db.selectFrom('orders').select('id').where('id', '=', orderId).where('account_id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}

/** The account's orders, newest first, with their plan's sku and product. */
export function listOrdersWithPlans(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('orders')
    .innerJoin('plans', 'plans.id', 'orders.plan_id')
    .select(['orders.id', 'orders.subscription_id', 'orders.reference', 'orders.status', 'orders.created_at', 'plans.sku', 'plans.product'])
    .where('orders.account_id', '=', accountId)
    .orderBy('orders.created_at', 'desc')
    .orderBy('orders.id', 'desc')
    .execute();
}

/**
 * The account's active orders' quantity, price and interval (in no set order), and when their
 * billing cycle started: a reinstated order's new subscription started at its reinstatement.
 */
export function listActiveOrderPrices(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('orders')
    .select(['quantity', 'unit_amount', 'currency', 'interval', sql<Date>`coalesce(reinstated_at, created_at)`.as('created_at')])
    .where('account_id', '=', accountId)
    .where('status', '=', 'active')
    .execute();
}

/** What the order.placed event tells of the order (throws for an unknown one). */
export function findPlacedOrder(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('orders')
    .select(['id', 'account_id', 'reference', 'subscription_id', 'quantity', 'first_invoice', 'currency'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
}

/** The order's status (throws for an unknown order). */
export function findOrderStatus(db: Kysely<Database>, orderId: number): Promise<{ status: OrderStatus }> {
  return db.selectFrom('orders').select(['status']).where('id', '=', orderId).executeTakeFirstOrThrow();
}

/** An order's status and who owns it (the cancellation's suspension reads it); undefined when there is none. */
export function findOrderToSuspend(db: Kysely<Database>, orderId: number) {
  return db.selectFrom('orders').select(['id', 'account_id', 'subscription_id', 'status']).where('id', '=', orderId).executeTakeFirst();
}

export function findOrderBySubscription(db: Kysely<Database>, processorSubscriptionId: string): Promise<{ id: number } | undefined> {
  return db.selectFrom('orders').select('id').where('processor_subscription_id', '=', processorSubscriptionId).executeTakeFirst();
}

/** Sets the order's status from a processor event unless a newer event set it already; false when it did not. */
export async function applySubscriptionStatus(
  db: Kysely<Database>,
  processorSubscriptionId: string,
  status: OrderStatus,
  eventCreated: number,
): Promise<boolean> {
  // A cancellation keeps the time it first happened (the grace period to reinstate counts from it).
  const cancelledAt = status === 'cancelled' ? sql<Date>`coalesce(cancelled_at, to_timestamp(${eventCreated}))` : null;
  const result = await db
    .updateTable('orders')
    .set({ status, processor_event_created: eventCreated, cancelled_at: cancelledAt })
    .where('processor_subscription_id', '=', processorSubscriptionId)
    .where((eb) => eb.or([eb('processor_event_created', 'is', null), eb('processor_event_created', '<=', String(eventCreated))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function insertOrder(db: Kysely<Database>, order: NewOrder): Promise<{ id: number }> {
  return db.insertInto('orders').values(order).returning('id').executeTakeFirstOrThrow();
}

/** What reinstating reads of the caller's order (undefined when it is another account's or unknown). */
export function findOrderToReinstate(db: Kysely<Database>, accountId: number, orderId: number) {
  return db
    .selectFrom('orders')
    .select(['id', 'account_id', 'plan_id', 'reference', 'subscription_id', 'processor_subscription_id', 'status', 'quantity', 'cancelled_at'])
    .where('id', '=', orderId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/**
 * The cancelled order is active again on a new processor subscription (the order keeps its own
 * subscription_id, the handle of its paths). Guarded by the status it moves from: false when
 * another request reinstated it first. Older events of the ended subscription no longer find it.
 */
export async function reinstateOrderOnSubscription(
  db: Kysely<Database>,
  orderId: number,
  processorSubscriptionId: string,
  status: OrderStatus,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status, processor_subscription_id: processorSubscriptionId, processor_event_created: null, cancelled_at: null, reinstated_at: now })
    .where('id', '=', orderId)
    .where('status', '=', 'cancelled')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** An order's status and who owns it (the reactivation job reads it); undefined when there is none. */
export function findOrderToReactivate(db: Kysely<Database>, orderId: number) {
  return db.selectFrom('orders').select(['id', 'account_id', 'reference', 'subscription_id', 'status']).where('id', '=', orderId).executeTakeFirst();
}
