import { sql, type Updateable, type Kysely } from 'kysely';
import type { Database, InvoiceTable, NewInvoice } from './schema.js';

export function findInvoiceStatus(db: Kysely<Database>, accountId: number, number: string): Promise<{ status: string } | undefined> {
  return db.selectFrom('invoices').select('status').where('account_id', '=', accountId).where('number', '=', number).executeTakeFirst();
}

/** One open invoice of the account, if there is any. */
export function findAnyOpenInvoice(db: Kysely<Database>, accountId: number): Promise<{ id: number } | undefined> {
  return db.selectFrom('invoices').select('id').where('account_id', '=', accountId).where('status', '=', 'open').executeTakeFirst();
}

/**
 * The account's invoices, newest first (by issue time, ties by id, descending), with their order's
 * reference, quantity, price and plan. `only` narrows them: a page (at most `limit`, after the
 * invoice `afterId` in this order; the cursor's time compared in SQL, with its microseconds), or the
 * open ones due before `pastDueAt`.
 */
export function listInvoicesWithOrders(
  db: Kysely<Database>,
  accountId: number,
  only?: { readonly limit: number; readonly afterId: number | null } | { readonly pastDueAt: Date },
) {
  let query = db
    .selectFrom('invoices')
    .leftJoin('orders', 'orders.id', 'invoices.order_id')
    .select([
      'invoices.id',
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
    .where('invoices.account_id', '=', accountId);
  if (only && 'pastDueAt' in only) query = query.where('invoices.status', '=', 'open').where('invoices.due_at', '<', only.pastDueAt);
  const afterId = only && 'afterId' in only ? only.afterId : null;
  if (afterId !== null) {
    const cursorTime = db.selectFrom('invoices as c').select('c.issued_at').where('c.id', '=', afterId);
    query = query.where((eb) =>
      eb.or([eb('invoices.issued_at', '<', cursorTime), eb.and([eb('invoices.issued_at', '=', cursorTime), eb('invoices.id', '<', afterId)])]),
    );
  }
  query = query.orderBy('invoices.issued_at', 'desc').orderBy('invoices.id', 'desc');
  return only && 'limit' in only ? query.limit(only.limit).execute() : query.execute();
}

/** The account's invoice with this number (the newest, should the processor have reused one), or undefined. */
export async function findAccountInvoiceId(db: Kysely<Database>, accountId: number, number: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('invoices')
    .select('id')
    .where('account_id', '=', accountId)
    .where('number', '=', number)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** What the account paid on invoices paid at or after `since`, in minor units, and the currency of its newest invoice. */
export async function sumAccountInvoicesPaid(db: Kysely<Database>, accountId: number, since: Date): Promise<{ paid: number; currency: string | null }> {
  const [sum, newest] = await Promise.all([
    db
      .selectFrom('invoices')
      .select(sql<string>`coalesce(sum(amount_paid), 0)`.as('paid'))
      .where('account_id', '=', accountId)
      .where('paid_at', '>=', since)
      .executeTakeFirst(),
    db
      .selectFrom('invoices')
      .select('currency')
      .where('account_id', '=', accountId)
      .orderBy('issued_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return { paid: Number(sum?.paid ?? 0), currency: newest?.currency ?? null };
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

export function findInvoiceForPaidEvent(db: Kysely<Database>, invoiceId: number) {
  return db
    .selectFrom('invoices')
    .select(['id', 'account_id', 'number', 'order_id', 'amount_paid', 'currency', 'paid_at', 'hosted_invoice_url'])
    .where('id', '=', invoiceId)
    .executeTakeFirst();
}

/** The account's open invoices, oldest first (only the one numbered `onlyNumber` when given). */
export function listOpenInvoicesToPay(db: Kysely<Database>, accountId: number, onlyNumber: string | null) {
  let query = db
    .selectFrom('invoices')
    .select(['id', 'number', 'amount_due', 'amount_paid', 'currency', 'processor_invoice_id'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'open')
    .orderBy('issued_at')
    .orderBy('id');
  if (onlyNumber !== null) query = query.where('number', '=', onlyNumber);
  return query.execute();
}

/** Claims an open invoice for paying for `claimMs` (by the database's clock) unless a payment holds it; false when one does. */
export async function claimInvoicePayment(db: Kysely<Database>, invoiceId: number, claimMs: number): Promise<boolean> {
  const claim = await db
    .updateTable('invoices')
    .set({ payment_claimed_until: sql<Date>`now() + ${`${claimMs} milliseconds`}::interval` })
    .where('id', '=', invoiceId)
    .where('status', '=', 'open')
    .where((eb) => eb.or([eb('payment_claimed_until', 'is', null), eb('payment_claimed_until', '<', sql<Date>`now()`)]))
    .executeTakeFirst();
  return Number(claim.numUpdatedRows) > 0;
}

/** Marks the invoice paid and lets go of its payment claim (a null hosted_invoice_url keeps the stored one). */
export async function markInvoicePaid(
  db: Kysely<Database>,
  invoiceId: number,
  paid: { amount_paid: number; paid_at: Date; hosted_invoice_url: string | null },
): Promise<void> {
  await db
    .updateTable('invoices')
    .set({
      status: 'paid',
      amount_paid: paid.amount_paid,
      paid_at: paid.paid_at,
      payment_claimed_until: null,
      last_payment_error: null,
      ...(paid.hosted_invoice_url !== null && { hosted_invoice_url: paid.hosted_invoice_url }),
    })
    .where('id', '=', invoiceId)
    .execute();
}

/** Lets go of the invoice's payment claim, recording why the payment failed (undefined: keep the last reason). */
export async function releaseInvoicePayment(db: Kysely<Database>, invoiceId: number, lastPaymentError: string | undefined): Promise<void> {
  await db
    .updateTable('invoices')
    .set({ payment_claimed_until: null, ...(lastPaymentError === undefined ? {} : { last_payment_error: lastPaymentError }) })
    .where('id', '=', invoiceId)
    .execute();
}

/** Inserts the invoices (the demo seed's history). */
export async function insertInvoices(db: Kysely<Database>, invoices: readonly NewInvoice[]): Promise<void> {
  await db.insertInto('invoices').values(invoices).execute();
}

/** Inserts the processor's invoice unless it is stored already; false then. */
export async function insertInvoiceOnce(db: Kysely<Database>, invoice: NewInvoice): Promise<boolean> {
  const inserted = await db
    .insertInto('invoices')
    .values(invoice)
    .onConflict((oc) => oc.column('processor_invoice_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The stored invoice of the processor's id (throws when there is none). */
export function findInvoiceByProcessorId(
  db: Kysely<Database>,
  processorInvoiceId: string,
): Promise<{ id: number; order_id: number | null; processor_event_created: string | null }> {
  return db
    .selectFrom('invoices')
    .select(['id', 'order_id', 'processor_event_created'])
    .where('processor_invoice_id', '=', processorInvoiceId)
    .executeTakeFirstOrThrow();
}

export async function updateInvoice(db: Kysely<Database>, invoiceId: number, set: Updateable<InvoiceTable>): Promise<void> {
  await db.updateTable('invoices').set(set).where('id', '=', invoiceId).execute();
}
