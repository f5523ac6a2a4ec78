import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface AccountLimitsRow {
  read_per_minute: number | null;
  change_per_minute: number | null;
  orders_per_hour: number | null;
}

/** The account's operator-set allowances, or undefined for an unknown account. */
export function findAccountLimitsRow(db: Kysely<Database>, accountId: number): Promise<AccountLimitsRow | undefined> {
  return db.selectFrom('accounts').select(['read_per_minute', 'change_per_minute', 'orders_per_hour']).where('id', '=', accountId).executeTakeFirst();
}

/** Sets the given allowance columns (the caller leaves out those it keeps). */
export async function updateAccountLimits(db: Kysely<Database>, accountId: number, set: Partial<AccountLimitsRow>): Promise<void> {
  await db.updateTable('accounts').set(set).where('id', '=', accountId).execute();
}

/** Locks the account's row (FOR UPDATE) until the transaction ends: the lock per-account limits are counted under. */
export async function lockAccount(db: Kysely<Database>, accountId: number): Promise<void> {
  await db.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}

/** Whether the account exists. */
export async function hasAccount(db: Kysely<Database>, accountId: number): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}

/** Whether any account exists (an empty database is seeded with the demo account on the first start). */
export async function hasAnyAccount(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function insertAccount(db: Kysely<Database>, name: string): Promise<number> {
  const row = await db.insertInto('accounts').values({ name }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function findAccountName(db: Kysely<Database>, accountId: number): Promise<string> {
  const row = await db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirstOrThrow();
  return row.name;
}

export function findAccount(db: Kysely<Database>, accountId: number): Promise<{ id: number; name: string }> {
  return db.selectFrom('accounts').select(['id', 'name']).where('id', '=', accountId).executeTakeFirstOrThrow();
}

/** The account whose processor customer this is. */
export function findAccountByCustomer(db: Kysely<Database>, customerId: string): Promise<{ id: number } | undefined> {
  return db.selectFrom('accounts').select('id').where('processor_customer_id', '=', customerId).executeTakeFirst();
}

/** The account's name and processor customer id (throws for an unknown account). */
export function findAccountCustomer(db: Kysely<Database>, accountId: number): Promise<{ id: number; name: string; processor_customer_id: string | null }> {
  return db.selectFrom('accounts').select(['id', 'name', 'processor_customer_id']).where('id', '=', accountId).executeTakeFirstOrThrow();
}

export async function setAccountCustomer(db: Kysely<Database>, accountId: number, customerId: string): Promise<void> {
  await db.updateTable('accounts').set({ processor_customer_id: customerId }).where('id', '=', accountId).execute();
}

/** The account's own DMARC pass-rate threshold for dmarc.failures (percent); null: the default. */
export async function findAccountDmarcAlertPassRate(db: Kysely<Database>, accountId: number): Promise<number | null> {
  const row = await db.selectFrom('accounts').select('dmarc_alert_pass_rate').where('id', '=', accountId).executeTakeFirst();
  return row?.dmarc_alert_pass_rate ?? null;
}

/** Sets (or, with null, clears back to the default) the account's DMARC pass-rate threshold. */
export async function setAccountDmarcAlertPassRate(db: Kysely<Database>, accountId: number, passRate: number | null): Promise<void> {
  await db.updateTable('accounts').set({ dmarc_alert_pass_rate: passRate }).where('id', '=', accountId).execute();
}
