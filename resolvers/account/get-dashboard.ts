import type { BuildState, OrderStatus } from '../../db/status-values.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';

export interface DashboardDomain {
  readonly domain: string;
  readonly buildState: BuildState;
  readonly mailboxCount: number;
  readonly forwardTo: string | null;
  readonly workspaceId: number | null;
  readonly workspaceName: string | null;
  /** Why the domain needs attention, as a sentence; null otherwise. */
  readonly buildReason: string | null;
  /** What our own DNS checks found at the build (jobs/verify-domain-dns.ts); empty before a build or when all is well. */
  readonly buildProblems: readonly { readonly code: string; readonly message: string }[];
}

export interface DashboardOrder {
  readonly orderId: number;
  readonly subscriptionId: string;
  readonly reference: string;
  readonly sku: string;
  readonly product: string;
  readonly status: OrderStatus;
  readonly createdAt: Date;
  readonly domains: readonly DashboardDomain[];
}

export interface Dashboard {
  readonly accountId: number;
  readonly accountName: string;
  readonly orderCount: number;
  readonly domainCount: number;
  readonly mailboxCount: number;
  readonly orders: readonly DashboardOrder[];
}

/**
 * Every owned domain grouped by the order that paid for it. Three queries whatever the number of
 * orders or domains (the account, its orders, its domains with their kept mailbox counts), grouped in memory.
 */
export async function getDashboard(ctx: Context): Promise<Dashboard> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const [account, orders, domains] = await Promise.all([
    db.selectFrom('accounts').select(['id', 'name']).where('id', '=', accountId).executeTakeFirstOrThrow(),
    db
      .selectFrom('orders')
      .innerJoin('plans', 'plans.id', 'orders.plan_id')
      .select(['orders.id', 'orders.subscription_id', 'orders.reference', 'orders.status', 'orders.created_at', 'plans.sku', 'plans.product'])
      .where('orders.account_id', '=', accountId)
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc')
      .execute(),
    db
      .selectFrom('domains')
      .leftJoin('workspaces', 'workspaces.id', 'domains.workspace_id')
      // mailbox_count is kept on the domain by triggers: no count per domain on every read.
      .select([
        'domains.order_id',
        'domains.domain',
        'domains.build_state',
        'domains.forward_to',
        'domains.workspace_id',
        'workspaces.name as workspace_name',
        'domains.mailbox_count',
        'domains.build_reason',
        'domains.build_problems',
      ])
      .where('domains.account_id', '=', accountId)
      .orderBy('domains.domain')
      .execute(),
  ]);
  const byOrder = new Map<number, DashboardDomain[]>();
  for (const d of domains) {
    const list = byOrder.get(d.order_id) ?? [];
    list.push({
      domain: d.domain,
      buildState: d.build_state,
      mailboxCount: d.mailbox_count,
      forwardTo: d.forward_to,
      workspaceId: d.workspace_id,
      workspaceName: d.workspace_name,
      buildReason: d.build_reason,
      buildProblems: d.build_problems ? JSON.parse(d.build_problems) : [],
    });
    byOrder.set(d.order_id, list);
  }
  const grouped = orders.map((o) => ({
    orderId: o.id,
    subscriptionId: o.subscription_id,
    reference: o.reference,
    sku: o.sku,
    product: o.product,
    status: o.status,
    createdAt: o.created_at,
    domains: byOrder.get(o.id) ?? [],
  }));
  return {
    accountId: account.id,
    accountName: account.name,
    orderCount: orders.length,
    domainCount: domains.length,
    mailboxCount: domains.reduce((sum, d) => sum + d.mailbox_count, 0),
    orders: grouped,
  };
}
