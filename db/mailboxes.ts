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

/** An order's active mailboxes with their domains, by domain then mailbox: what its cancellation suspends. */
export function findActiveMailboxesOfOrder(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('mailboxes')
    .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
    .select([...MAILBOX_COLUMNS, 'domains.domain'])
    .where('domains.order_id', '=', orderId)
    .where('mailboxes.status', '=', 'active')
    .orderBy('domains.domain')
    .orderBy('mailboxes.id')
    .execute();
}

/**
 * Cancelled orders placed through a processor that still have active mailboxes (the sweep's net
 * under the cancellation hook: a hook that failed, or JOBS=off on the instance that took the webhook).
 */
export function findCancelledOrdersWithActiveMailboxes(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('orders')
    .select(['orders.id'])
    .where('orders.status', '=', 'cancelled')
    .where('orders.processor_subscription_id', 'is not', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('mailboxes')
          .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
          .select('mailboxes.id')
          .whereRef('domains.order_id', '=', 'orders.id')
          .where('mailboxes.status', '=', 'active'),
      ),
    )
    .orderBy('orders.id')
    .limit(limit)
    .execute();
}

/**
 * The order's mailboxes its cancellation suspended: `suspended` with no open disconnection (one the
 * reconnection monitor saw suspended by the provider itself has one, and is not ours to take up).
 */
export function findCancellationSuspendedMailboxesOfOrder(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('mailboxes')
    .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
    .select([...MAILBOX_COLUMNS, 'domains.domain'])
    .where('domains.order_id', '=', orderId)
    .where('mailboxes.status', '=', 'suspended')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('mailbox_disconnections')
            .select('mailbox_disconnections.id')
            .whereRef('mailbox_disconnections.mailbox_id', '=', 'mailboxes.id')
            .where('mailbox_disconnections.reconnected_at', 'is', null),
        ),
      ),
    )
    .orderBy('domains.domain')
    .orderBy('mailboxes.id')
    .execute();
}

/**
 * Reinstated orders, active again, that still hold mailboxes their cancellation suspended (the
 * sweep's net under the reinstatement hook, and for a suspension that finished after it).
 */
export function findReinstatedOrdersWithSuspendedMailboxes(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('orders')
    .select(['orders.id'])
    .where('orders.status', 'in', ['active', 'trialing'])
    .where('orders.reinstated_at', 'is not', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('mailboxes')
          .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
          .select('mailboxes.id')
          .whereRef('domains.order_id', '=', 'orders.id')
          .where('mailboxes.status', '=', 'suspended')
          .where((inner) =>
            inner.not(
              inner.exists(
                inner
                  .selectFrom('mailbox_disconnections')
                  .select('mailbox_disconnections.id')
                  .whereRef('mailbox_disconnections.mailbox_id', '=', 'mailboxes.id')
                  .where('mailbox_disconnections.reconnected_at', 'is', null),
              ),
            ),
          ),
      ),
    )
    .orderBy('orders.id')
    .limit(limit)
    .execute();
}
