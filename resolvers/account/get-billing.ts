import { listOrderDomains } from '../../db/domains.js';
import { findAccountInvoiceId, listInvoicesWithOrders, sumAccountInvoicesPaid } from '../../db/invoices.js';
import { listActiveOrderPrices } from '../../db/orders.js';
import { listPlanProducts } from '../../db/plans.js';
import type { InvoiceStatus } from '../../db/status-values.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { invalidCursor, pageOf, readPageArgs, type Page, type PageArgs } from '../pagination.js';

export interface BillingInvoice {
  readonly number: string;
  readonly status: InvoiceStatus;
  readonly amountDue: number;
  readonly amountPaid: number;
  readonly currency: string;
  readonly issuedAt: Date;
  readonly dueAt: Date;
  readonly paidAt: Date | null;
  readonly orderReference: string | null;
  readonly pastDue: boolean;
  /** What is still owed, minor units (0 once paid). */
  readonly amountRemaining: number;
  /** What the invoice is for: the plan times the quantity, and a discount line when one applied. */
  readonly lines: readonly InvoiceLine[];
  /** The domains of the order the invoice bills. */
  readonly domains: readonly string[];
  /** The processor's page for the invoice (Stripe's hosted invoice); null with the sandbox. */
  readonly hostedInvoiceUrl: string | null;
  /** Why the last payment attempt failed, for people; null when none failed or it is paid. */
  readonly lastPaymentError: string | null;
}

export interface InvoiceLine {
  readonly description: string;
  readonly quantity: number;
  /** Minor units; negative for a discount. */
  readonly unitAmount: number;
  readonly amount: number;
}

export interface Billing {
  readonly currency: string;
  /** Paid this calendar month (UTC), minor units. */
  readonly monthToDateSpend: number;
  readonly pastDueAmount: number;
  readonly pastDueInvoices: readonly BillingInvoice[];
  readonly nextCharge: { readonly amount: number; readonly currency: string; readonly date: Date } | null;
}

const MONTH_DAYS: ReadonlyMap<string, number> = new Map([
  ['month', 1],
  ['year', 12],
]);

/**
 * This month's spend, what is past due (open and after its due date) and the next renewal of the
 * active orders, from invoices as recorded from the processor (Stripe webhooks or the sandbox). The
 * invoices themselves are read a page at a time (listInvoicesPage), or all at once (listAllInvoices).
 */
export async function getBilling(ctx: Context): Promise<Billing> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const now = ctx.now();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const [pastDueRows, spend, orders, plans] = await Promise.all([
    listInvoicesWithOrders(db, accountId, { pastDueAt: now }),
    sumAccountInvoicesPaid(db, accountId, monthStart),
    listActiveOrderPrices(db, accountId),
    listPlanProducts(db, accountId),
  ]);
  const pastDue = await billingInvoices(ctx, pastDueRows, plans);
  return {
    currency: orders[0]?.currency ?? plans[0]?.currency ?? spend.currency ?? 'usd',
    monthToDateSpend: spend.paid,
    pastDueAmount: pastDue.reduce((s, i) => s + i.amountDue - i.amountPaid, 0),
    pastDueInvoices: pastDue,
    nextCharge: nextRenewal(orders, now),
  };
}

/** Every invoice of the caller's account, newest first (the deprecated Billing.invoices). */
export async function listAllInvoices(ctx: Context): Promise<readonly BillingInvoice[]> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const [rows, plans] = await Promise.all([listInvoicesWithOrders(db, accountId), listPlanProducts(db, accountId)]);
  return billingInvoices(ctx, rows, plans);
}

/**
 * One page of the caller's invoices, newest first (by issue time, ties by our id): `first`/`limit`
 * 1-100 (default 10), `after`/`starting_after` the number of the last invoice of the previous page.
 */
export async function listInvoicesPage(args: PageArgs, ctx: Context): Promise<Page<BillingInvoice>> {
  const accountId = await requireAccountId(ctx);
  const request = readPageArgs(args);
  const db = ctx.services.db;
  let afterId: number | null = null;
  if (request.after !== null) {
    afterId = (await findAccountInvoiceId(db, accountId, request.after)) ?? null;
    if (afterId === null) throw invalidCursor('the number of an invoice', request.after);
  }
  const [rows, plans] = await Promise.all([listInvoicesWithOrders(db, accountId, { limit: request.limit + 1, afterId }), listPlanProducts(db, accountId)]);
  const invoices = await billingInvoices(ctx, rows, plans);
  return pageOf(invoices, request, (i) => i.number);
}

type InvoiceRow = Awaited<ReturnType<typeof listInvoicesWithOrders>>[number];

/** The rows as the API shows them: lines from the order's plan, the order's domains, what is owed. */
async function billingInvoices(ctx: Context, invoices: readonly InvoiceRow[], plans: readonly { id: number; product: string }[]): Promise<BillingInvoice[]> {
  const now = ctx.now();
  const orderIds = [...new Set(invoices.flatMap((i) => (i.order_id === null ? [] : [i.order_id])))];
  const domainRows = orderIds.length ? await listOrderDomains(ctx.services.db, orderIds) : [];
  const domainsOf = (orderId: number | null) => domainRows.filter((d) => d.order_id === orderId).map((d) => d.domain);
  const productOf = (planId: number | null) => plans.find((p) => p.id === planId)?.product ?? 'Mailboxes';
  return invoices.map((i) => ({
    number: i.number,
    status: i.status,
    amountDue: i.amount_due,
    amountPaid: i.amount_paid,
    currency: i.currency,
    issuedAt: i.issued_at,
    dueAt: i.due_at,
    paidAt: i.paid_at,
    orderReference: i.reference,
    pastDue: i.status === 'open' && new Date(i.due_at) < now,
    amountRemaining: i.status === 'open' ? Math.max(0, i.amount_due - i.amount_paid) : 0,
    lines: linesOf(productOf(i.plan_id), i.quantity, i.unit_amount, i.amount_due),
    domains: domainsOf(i.order_id),
    hostedInvoiceUrl: i.hosted_invoice_url,
    lastPaymentError: i.status === 'open' ? i.last_payment_error : null,
  }));
}

/**
 * The invoice's lines as the order says: plan × quantity at the unit price, then the discount that
 * brings it to what was billed. An invoice without an order (one the operator issued) is one line.
 */
function linesOf(product: string, quantity: number | null, unitAmount: number | null, amountDue: number): InvoiceLine[] {
  if (quantity === null || unitAmount === null) return [{ description: 'Invoice total', quantity: 1, unitAmount: amountDue, amount: amountDue }];
  const full = quantity * unitAmount;
  const lines: InvoiceLine[] = [{ description: product, quantity, unitAmount, amount: full }];
  if (amountDue < full) lines.push({ description: 'Discount', quantity: 1, unitAmount: amountDue - full, amount: amountDue - full });
  return lines;
}

/** The soonest renewal date over active orders, and what is charged then (every order renewing that day). */
function nextRenewal(orders: readonly { quantity: number; unit_amount: number; currency: string; interval: string; created_at: Date }[], now: Date) {
  let best = null as { amount: number; currency: string; date: Date } | null;
  for (const o of orders) {
    const months = MONTH_DAYS.get(o.interval) ?? 1;
    const date = new Date(o.created_at);
    while (date <= now) date.setUTCMonth(date.getUTCMonth() + months);
    const amount = o.quantity * o.unit_amount;
    if (!best || date.getTime() < best.date.getTime() - 86_400_000) best = { amount, currency: o.currency, date };
    else if (Math.abs(date.getTime() - best.date.getTime()) < 86_400_000) best = { ...best, amount: best.amount + amount };
  }
  return best;
}
