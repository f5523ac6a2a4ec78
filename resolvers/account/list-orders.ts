import type { OrderStatus } from '../../db/status-values.js';
import { sql } from 'kysely';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';

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

/** The caller's orders, newest first, with their domain and mailbox counts (one query). */
export async function listOrders(ctx: Context): Promise<readonly OrderSummary[]> {
  const accountId = await requireAccountId(ctx);
  const rows = await ctx.services.db
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
    .where('orders.account_id', '=', accountId)
    .orderBy('orders.created_at', 'desc')
    .orderBy('orders.id', 'desc')
    .execute();
  return rows.map((o) => ({
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
  }));
}
