import { z } from 'zod';
import { findAccount } from '../../db/accounts.js';
import { countAccountDomains, findAccountDomain, listDashboardDomains, listDashboardDomainsPage } from '../../db/domains.js';
import { countAccountOrders, listOrdersWithPlans } from '../../db/orders.js';
import type { BuildState, OrderStatus } from '../../db/status-values.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { invalidCursor, pageOf, readPageArgs, type Page, type PageArgs } from '../pagination.js';

export interface DashboardDomain {
  readonly domain: string;
  /** The order that paid for the domain. */
  readonly orderId: number;
  readonly buildState: BuildState;
  readonly mailboxCount: number;
  readonly forwardTo: string | null;
  readonly workspaceId: number | null;
  readonly workspaceName: string | null;
  /** Why the domain needs attention, as a sentence; null otherwise. */
  readonly buildReason: string | null;
  /** What our own DNS checks found at the build (jobs/verify-domain-dns.ts); empty before a build or when all is well. */
  readonly buildProblems: readonly BuildProblem[];
}

/** One failing record of the domain's setup: the sentence, and the record to publish (null on problems stored before records were kept). */
export interface BuildProblem {
  readonly code: string;
  readonly message: string;
  readonly record: { readonly type: string; readonly name: string; readonly value: string } | null;
}

/** The stored problems (settle-build-state.ts writes them); older rows carry no record. */
const StoredProblems = z.array(
  z.object({
    code: z.string(),
    message: z.string(),
    record: z.object({ type: z.string(), name: z.string(), value: z.string() }).nullish(),
  }),
);

function buildProblemsOf(stored: string | null): BuildProblem[] {
  if (!stored) return [];
  const parsed = StoredProblems.safeParse(JSON.parse(stored));
  if (!parsed.success) return [];
  return parsed.data.map((p) => ({ code: p.code, message: p.message, record: p.record ?? null }));
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

/** The account's counts: what the dashboard says whichever page of its domains is shown. */
export interface DashboardSummary {
  readonly accountId: number;
  readonly accountName: string;
  readonly orderCount: number;
  readonly domainCount: number;
  readonly mailboxCount: number;
}

/**
 * A page of the dashboard's domains, and the same domains grouped by the order that paid for them
 * (an order whose domains span two pages is on both, each time with the domains of that page).
 */
export interface DashboardDomainPage extends Page<DashboardDomain> {
  readonly orders: readonly DashboardOrder[];
}

/** The account's counts: three small queries, whatever the number of orders or domains. */
export async function getDashboardSummary(ctx: Context): Promise<DashboardSummary> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const [account, orderCount, counts] = await Promise.all([findAccount(db, accountId), countAccountOrders(db, accountId), countAccountDomains(db, accountId)]);
  return { accountId: account.id, accountName: account.name, orderCount, domainCount: counts.domains, mailboxCount: counts.mailboxes };
}

/**
 * Every owned domain grouped by the order that paid for it, every order with or without domains.
 * Two queries whatever the number of orders or domains, grouped in memory.
 */
export async function listDashboardOrders(ctx: Context): Promise<readonly DashboardOrder[]> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const [orders, domains] = await Promise.all([listOrdersWithPlans(db, accountId), listDashboardDomains(db, accountId)]);
  const byOrder = new Map<number, DashboardDomain[]>();
  for (const d of domains) {
    const list = byOrder.get(d.order_id) ?? [];
    list.push(dashboardDomain(d));
    byOrder.set(d.order_id, list);
  }
  return orders.map((o) => ({
    orderId: o.id,
    subscriptionId: o.subscription_id,
    reference: o.reference,
    sku: o.sku,
    product: o.product,
    status: o.status,
    createdAt: o.created_at,
    domains: byOrder.get(o.id) ?? [],
  }));
}

/**
 * One page of the account's domains, in the dashboard's order (newest order first, then by name):
 * `first`/`limit` 1-100 (default 10), `after`/`starting_after` the last domain of the previous page.
 */
export async function listDashboardDomainPage(args: PageArgs, ctx: Context): Promise<DashboardDomainPage> {
  const accountId = await requireAccountId(ctx);
  const request = readPageArgs(args);
  const db = ctx.services.db;
  if (request.after !== null && !(await findAccountDomain(db, accountId, request.after))) throw invalidCursor('a domain of your dashboard', request.after);
  const rows = await listDashboardDomainsPage(db, accountId, { limit: request.limit + 1, after: request.after });
  const page = pageOf(rows, request, (r) => r.domain);
  const orders: DashboardOrder[] = [];
  const domains: DashboardDomain[] = [];
  for (const row of page.items) {
    const domain = dashboardDomain(row);
    domains.push(domain);
    const last = orders.at(-1);
    if (last?.orderId === row.order_id) orders[orders.length - 1] = { ...last, domains: [...last.domains, domain] };
    else
      orders.push({
        orderId: row.order_id,
        subscriptionId: row.subscription_id,
        reference: row.reference,
        sku: row.sku,
        product: row.product,
        status: row.order_status,
        createdAt: row.order_created_at,
        domains: [domain],
      });
  }
  return { ...page, items: domains, cursorOf: (d) => d.domain, orders };
}

function dashboardDomain(d: {
  order_id: number;
  domain: string;
  build_state: BuildState;
  mailbox_count: number;
  forward_to: string | null;
  workspace_id: number | null;
  workspace_name: string | null;
  build_reason: string | null;
  build_problems: string | null;
}): DashboardDomain {
  return {
    domain: d.domain,
    orderId: d.order_id,
    buildState: d.build_state,
    mailboxCount: d.mailbox_count,
    forwardTo: d.forward_to,
    workspaceId: d.workspace_id,
    workspaceName: d.workspace_name,
    buildReason: d.build_reason,
    buildProblems: buildProblemsOf(d.build_problems),
  };
}
