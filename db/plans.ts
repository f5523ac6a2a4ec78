import type { Kysely } from 'kysely';
import type { Database, NewPlan } from './schema.js';

/** The account's plans, the orderable ones first, each group by sku. */
export function listPlans(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('plans')
    .select(['sku', 'product', 'description', 'unit_amount', 'currency', 'interval', 'mailboxes_per_unit', 'orderable', 'why_not'])
    .where('account_id', '=', accountId)
    .orderBy('orderable', 'desc')
    .orderBy('sku')
    .execute();
}

export function listPlanSkus(db: Kysely<Database>, accountId: number): Promise<{ sku: string; orderable: boolean }[]> {
  return db.selectFrom('plans').select(['sku', 'orderable']).where('account_id', '=', accountId).execute();
}

export function listPlanProducts(db: Kysely<Database>, accountId: number): Promise<{ id: number; currency: string; product: string }[]> {
  return db.selectFrom('plans').select(['id', 'currency', 'product']).where('account_id', '=', accountId).execute();
}

/** Inserts the plans; their ids, in the order given. */
export function insertPlans(db: Kysely<Database>, plans: readonly NewPlan[]): Promise<{ id: number }[]> {
  return db.insertInto('plans').values(plans).returning('id').execute();
}

export function findPlanBySku(db: Kysely<Database>, accountId: number, sku: string) {
  return db.selectFrom('plans').selectAll().where('account_id', '=', accountId).where('sku', '=', sku).executeTakeFirst();
}

/** Sets the price of the account's plan with this sku. */
export async function setPlanUnitAmount(db: Kysely<Database>, accountId: number, sku: string, unitAmount: number): Promise<void> {
  await db.updateTable('plans').set({ unit_amount: unitAmount }).where('account_id', '=', accountId).where('sku', '=', sku).execute();
}

/** Sets the plan's price and the processor's Price it charges through, from now (price_updated_at). */
export async function setPlanPrice(db: Kysely<Database>, planId: number, unitAmount: number, processorPriceId: string | null, now: Date): Promise<void> {
  await db
    .updateTable('plans')
    .set({ unit_amount: unitAmount, processor_price_id: processorPriceId, price_updated_at: now })
    .where('id', '=', planId)
    .execute();
}

export function findPlanSku(db: Kysely<Database>, planId: number): Promise<{ sku: string } | undefined> {
  return db.selectFrom('plans').select('sku').where('id', '=', planId).executeTakeFirst();
}

/** A plan by its id (an order's), whatever account it is on; undefined when there is none. */
export function findPlanById(db: Kysely<Database>, planId: number) {
  return db.selectFrom('plans').selectAll().where('id', '=', planId).executeTakeFirst();
}
