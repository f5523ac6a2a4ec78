import type { Kysely } from 'kysely';
import type { Database, NewMailbox } from './schema.js';

const MAILBOX_COLUMNS = [
  'mailboxes.id',
  'mailboxes.domain_id',
  'mailboxes.first_name',
  'mailboxes.last_name',
  'mailboxes.local_part',
  'mailboxes.status',
] as const;

/** A domain's mailboxes in the order they were ordered, without their sealed passwords. */
export function findMailboxesOfDomain(db: Kysely<Database>, domainId: number) {
  return db.selectFrom('mailboxes').select(MAILBOX_COLUMNS).where('domain_id', '=', domainId).orderBy('id').execute();
}

/** A domain's mailboxes with their sealed passwords (only the credential answers read these). */
export function findMailboxSecretsOfDomain(db: Kysely<Database>, domainId: number) {
  return db
    .selectFrom('mailboxes')
    .select([...MAILBOX_COLUMNS, 'mailboxes.password_sealed'])
    .where('domain_id', '=', domainId)
    .orderBy('id')
    .execute();
}

/** One mailbox of the account by its address's two halves, with its domain and order; undefined when it is not the account's. */
export function findAccountMailbox(db: Kysely<Database>, accountId: number, localPart: string, domain: string) {
  return db
    .selectFrom('mailboxes')
    .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .select([...MAILBOX_COLUMNS, 'domains.domain', 'domains.order_id', 'domains.account_id', 'orders.status as order_status'])
    .where('domains.account_id', '=', accountId)
    .where('domains.domain', '=', domain)
    .where('mailboxes.local_part', '=', localPart)
    .executeTakeFirst();
}

/** Every mailbox of an order with its domain and sealed password, by domain then mailbox (the export). */
export function findMailboxSecretsOfOrder(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('mailboxes')
    .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
    .select([...MAILBOX_COLUMNS, 'mailboxes.password_sealed', 'domains.domain'])
    .where('domains.order_id', '=', orderId)
    .orderBy('domains.domain')
    .orderBy('mailboxes.id')
    .execute();
}

export async function setMailboxPassword(db: Kysely<Database>, mailboxId: number, sealed: string): Promise<void> {
  await db.updateTable('mailboxes').set({ password_sealed: sealed }).where('id', '=', mailboxId).execute();
}

/** The provider made the domain's mailboxes: the pending ones are active from now. */
export async function activatePendingMailboxes(db: Kysely<Database>, domainId: number, now: Date): Promise<void> {
  await db
    .updateTable('mailboxes')
    .set({ status: 'active', status_changed_at: now })
    .where('domain_id', '=', domainId)
    .where('status', '=', 'pending')
    .execute();
}

/** Moves a mailbox from one status to another; false when it no longer had `from` (another run moved it first). */
export async function moveMailboxStatus(db: Kysely<Database>, mailboxId: number, from: string, to: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('mailboxes')
    .set({ status: to, status_changed_at: now })
    .where('id', '=', mailboxId)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function openMailboxDisconnection(db: Kysely<Database>, mailboxId: number, status: string, now: Date): Promise<number> {
  const row = await db
    .insertInto('mailbox_disconnections')
    .values({ mailbox_id: mailboxId, status, disconnected_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The mailbox is active again: its open disconnections are closed; answers their ids. */
export async function closeMailboxDisconnections(db: Kysely<Database>, mailboxId: number, now: Date): Promise<number[]> {
  const rows = await db
    .updateTable('mailbox_disconnections')
    .set({ reconnected_at: now })
    .where('mailbox_id', '=', mailboxId)
    .where('reconnected_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Built domains of processor-placed orders with the reconnection switch on whose mailboxes were
 * not looked at since `before` (the reconnection monitor's schedule).
 */
export function findDomainsDueMailboxCheck(db: Kysely<Database>, before: Date, limit: number) {
  return db
    .selectFrom('domains')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .select(['domains.id'])
    .where('orders.monitor_reconnection', '=', true)
    .where('orders.processor_subscription_id', 'is not', null)
    .where('domains.mailboxes_created_at', 'is not', null)
    .where((eb) => eb.or([eb('domains.mailboxes_checked_at', 'is', null), eb('domains.mailboxes_checked_at', '<=', before)]))
    .orderBy('domains.id')
    .limit(limit)
    .execute();
}

export async function markMailboxesChecked(db: Kysely<Database>, domainIds: readonly number[], now: Date): Promise<void> {
  if (domainIds.length === 0) return;
  await db.updateTable('domains').set({ mailboxes_checked_at: now }).where('id', 'in', domainIds).execute();
}

export async function insertMailboxes(db: Kysely<Database>, mailboxes: readonly NewMailbox[]): Promise<void> {
  await db.insertInto('mailboxes').values(mailboxes).execute();
}
