import type { Insertable, Kysely } from 'kysely';
import type { Database, SandboxCardTable, SandboxSetupTokenTable, SandboxSubscriptionTable } from './schema.js';

/*
 * The sandbox payment processor's own tables (sandbox_setup_tokens, sandbox_cards,
 * sandbox_subscriptions), read and written by clients/payments/kysely-sandbox-store.ts.
 */

export async function insertSandboxSetupToken(db: Kysely<Database>, token: Insertable<SandboxSetupTokenTable>): Promise<void> {
  await db.insertInto('sandbox_setup_tokens').values(token).execute();
}

export function findSandboxSetupToken(db: Kysely<Database>, token: string) {
  return db.selectFrom('sandbox_setup_tokens').selectAll().where('token', '=', token).executeTakeFirst();
}

/** Marks the token used if it is unused and not expired (a conditional update: it works once); the token's row, or undefined. */
export function useSandboxSetupToken(db: Kysely<Database>, token: string, now: Date) {
  return db
    .updateTable('sandbox_setup_tokens')
    .set({ used_at: now })
    .where('token', '=', token)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

/** Saves the customer's card, replacing the one saved before. */
export async function upsertSandboxCard(db: Kysely<Database>, card: Insertable<SandboxCardTable>): Promise<void> {
  await db
    .insertInto('sandbox_cards')
    .values(card)
    .onConflict((oc) =>
      oc.column('customer_id').doUpdateSet({
        payment_method_id: card.payment_method_id,
        brand: card.brand,
        last4: card.last4,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        outcome: card.outcome,
        saved_at: card.saved_at,
      }),
    )
    .execute();
}

export function findSandboxCard(db: Kysely<Database>, customerId: string) {
  return db.selectFrom('sandbox_cards').selectAll().where('customer_id', '=', customerId).executeTakeFirst();
}

/** Records the subscription unless the customer has one under this idempotency key; its row, or undefined then. */
export function insertSandboxSubscriptionOnce(db: Kysely<Database>, subscription: Insertable<SandboxSubscriptionTable>) {
  return db
    .insertInto('sandbox_subscriptions')
    .values(subscription)
    .onConflict((oc) => oc.columns(['customer_id', 'idempotency_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findSandboxSubscription(db: Kysely<Database>, customerId: string, idempotencyKey: string) {
  return db
    .selectFrom('sandbox_subscriptions')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

export async function setSandboxSubscriptionStatus(db: Kysely<Database>, subscriptionId: string, status: string): Promise<void> {
  await db.updateTable('sandbox_subscriptions').set({ status }).where('subscription_id', '=', subscriptionId).execute();
}
