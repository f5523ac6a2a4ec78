import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export function findInvoiceStatus(db: Kysely<Database>, accountId: number, number: string): Promise<{ status: string } | undefined> {
  return db.selectFrom('invoices').select('status').where('account_id', '=', accountId).where('number', '=', number).executeTakeFirst();
}

/** One open invoice of the account, if there is any. */
export function findAnyOpenInvoice(db: Kysely<Database>, accountId: number): Promise<{ id: number } | undefined> {
  return db.selectFrom('invoices').select('id').where('account_id', '=', accountId).where('status', '=', 'open').executeTakeFirst();
}

/** The account's invoices, newest first, with their order's reference, quantity, price and plan. */
export function listInvoicesWithOrders(db: Kysely<Database>, accountId: number) {
  return db
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
      'orders.id as order_id',
      'orders.quantity',
      'orders.unit_amount',
      'orders.plan_id',
      'invoices.hosted_invoice_url',
      'invoices.last_payment_error',
    ])
    .where('invoices.account_id', '=', accountId)
    .orderBy('invoices.issued_at', 'desc')
    .orderBy('invoices.id', 'desc')
    .execute();
}

/** Up to 500 open invoices that fell due in the 30 days before `now` (ms) and have no invoice.past_due event yet. */
export function listPastDueInvoicesWithoutEvent(db: Kysely<Database>, now: number) {
  return db
    .selectFrom('invoices')
    .leftJoin('events', (join) => join.on('events.id', '=', sql<string>`'evt_invoice_past_due_' || invoices.id`))
    .select([
      'invoices.id',
      'invoices.account_id',
      'invoices.number',
      'invoices.order_id',
      'invoices.amount_due',
      'invoices.amount_paid',
      'invoices.currency',
      'invoices.due_at',
    ])
    .where('invoices.status', '=', 'open')
    .where('invoices.due_at', '<', new Date(now))
    .where('invoices.due_at', '>', new Date(now - 30 * 86_400_000))
    .where('events.id', 'is', null)
    .limit(500)
    .execute();
}
