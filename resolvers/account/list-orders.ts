import { isAccountOrder, listOrdersWithCounts } from '../../db/orders.js';
import type { OrderStatus } from '../../db/status-values.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { invalidCursor, numericCursor, pageOf, readPageArgs, type Page, type PageArgs } from '../pagination.js';

export interface OrderSummary {
  readonly orderId: number;
  readonly subscriptionId: string;
  readonly reference: string;
  readonly sku: string;
  readonly product: string;
  readonly status: OrderStatus;
  readonly quantity: number;
  readonly unitAmount: number;
  readonly currency: string;
  readonly interval: string;
  /** What every renewal costs: quantity × unit amount, in minor units. */
  readonly renewalTotal: number;
  readonly sequencer: string | null;
  readonly monitorReconnection: boolean;
  readonly monitorDeliverability: boolean;
  readonly domainCount: number;
  readonly mailboxCount: number;
  readonly createdAt: Date;
}

/** Every one of the caller's orders, newest first, with their domain and mailbox counts (one query). */
export async function listOrders(ctx: Context): Promise<readonly OrderSummary[]> {
  const accountId = await requireAccountId(ctx);
  return (await listOrdersWithCounts(ctx.services.db, accountId)).map(orderSummary);
}

/**
 * One page of the caller's orders, newest first (ties by id): `first`/`limit` 1-100 (default 10),
 * `after`/`starting_after` the order_id of the last order of the previous page.
 */
export async function listOrdersPage(args: PageArgs, ctx: Context): Promise<Page<OrderSummary>> {
  const accountId = await requireAccountId(ctx);
  const request = readPageArgs(args);
  const db = ctx.services.db;
  let afterId: number | null = null;
  if (request.after !== null) {
    afterId = numericCursor(request.after);
    if (afterId === null || !(await isAccountOrder(db, accountId, afterId))) throw invalidCursor('the order_id of an order', request.after);
  }
  const rows = await listOrdersWithCounts(db, accountId, { limit: request.limit + 1, afterId });
  return pageOf(rows.map(orderSummary), request, (o) => String(o.orderId));
}

function orderSummary(o: Awaited<ReturnType<typeof listOrdersWithCounts>>[number]): OrderSummary {
  return {
    orderId: o.id,
    subscriptionId: o.subscription_id,
    reference: o.reference,
    sku: o.sku,
    product: o.product,
    status: o.status,
    quantity: o.quantity,
    unitAmount: o.unit_amount,
    currency: o.currency,
    interval: o.interval,
    renewalTotal: o.quantity * o.unit_amount,
    sequencer: o.sequencer,
    monitorReconnection: o.monitor_reconnection,
    monitorDeliverability: o.monitor_deliverability,
    domainCount: Number(o.domain_count ?? 0),
    mailboxCount: Number(o.mailbox_count ?? 0),
    createdAt: o.created_at,
  };
}
