import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';

export interface BillingInvoice {
  readonly number: string;
  readonly status: string;
  readonly amountDue: number;
  readonly amountPaid: number;
  readonly currency: string;
  readonly issuedAt: Date;
  readonly dueAt: Date;
  readonly paidAt: Date | null;
  readonly orderReference: string | null;
  readonly pastDue: boolean;
}

export interface Billing {
  readonly currency: string;
  /** Paid this calendar month (UTC), minor units. */
  readonly monthToDateSpend: number;
  readonly pastDueAmount: number;
  readonly pastDueInvoices: readonly BillingInvoice[];
  readonly nextCharge: { readonly amount: number; readonly currency: string; readonly date: Date } | null;
  readonly invoices: readonly BillingInvoice[];
}

const MONTH_DAYS = { month: 1, year: 12 } as const;

/**
 * Invoices as recorded from the processor (Stripe webhooks or the sandbox), this month's spend, what
 * is past due (open and after its due date) and the next renewal of the active orders.
 */
export async function getBilling(ctx: Context): Promise<Billing> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const now = ctx.now();
  const [invoices, orders, plans] = await Promise.all([
    db
      .selectFrom('invoices')
      .leftJoin('orders', 'orders.id', 'invoices.order_id')
      .select([
        'invoices.number',
        'invoices.status',
        'invoices.amount_due',
        'invoices.amount_paid',
        'invoices.currency',
        'invoices.issued_at',
        'invoices.due_at',
        'invoices.paid_at',
        'orders.reference',
      ])
      .where('invoices.account_id', '=', accountId)
      .orderBy('invoices.issued_at', 'desc')
      .orderBy('invoices.id', 'desc')
      .execute(),
    db
      .selectFrom('orders')
      .select(['quantity', 'unit_amount', 'currency', 'interval', 'created_at'])
      .where('account_id', '=', accountId)
      .where('status', '=', 'active')
      .execute(),
    db.selectFrom('plans').select('currency').where('account_id', '=', accountId).limit(1).execute(),
  ]);
  const list: BillingInvoice[] = invoices.map((i) => ({
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
  }));
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const pastDue = list.filter((i) => i.pastDue);
  return {
    currency: orders[0]?.currency ?? plans[0]?.currency ?? invoices[0]?.currency ?? 'usd',
    monthToDateSpend: list.filter((i) => i.paidAt && new Date(i.paidAt) >= monthStart).reduce((s, i) => s + i.amountPaid, 0),
    pastDueAmount: pastDue.reduce((s, i) => s + i.amountDue - i.amountPaid, 0),
    pastDueInvoices: pastDue,
    nextCharge: nextRenewal(orders, now),
    invoices: list,
  };
}

/** The soonest renewal date over active orders, and what is charged then (every order renewing that day). */
function nextRenewal(orders: readonly { quantity: number; unit_amount: number; currency: string; interval: string; created_at: Date }[], now: Date) {
  let best = null as { amount: number; currency: string; date: Date } | null;
  for (const o of orders) {
    const months = MONTH_DAYS[o.interval as keyof typeof MONTH_DAYS] ?? 1;
    const date = new Date(o.created_at);
    while (date <= now) date.setUTCMonth(date.getUTCMonth() + months);
    const amount = o.quantity * o.unit_amount;
    if (!best || date.getTime() < best.date.getTime() - 86_400_000) best = { amount, currency: o.currency, date };
    else if (Math.abs(date.getTime() - best.date.getTime()) < 86_400_000) best = { ...best, amount: best.amount + amount };
  }
  return best;
}
