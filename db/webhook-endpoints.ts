import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** An endpoint as the API shows it (the signing secret is never read back). */
export interface WebhookEndpointRow {
  id: number;
  url: string;
  events: string;
  description: string | null;
  created_at: Date;
}

const SHOWN = ['id', 'url', 'events', 'description', 'created_at'] as const;

/** One endpoint of the account, or undefined when it is another account's, deleted or unknown. */
export function findWebhookEndpoint(db: Kysely<Database>, accountId: number, endpointId: number): Promise<WebhookEndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .select(SHOWN)
    .where('id', '=', endpointId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The account's endpoints that are not deleted, oldest first. */
export function listWebhookEndpoints(db: Kysely<Database>, accountId: number): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhook_endpoints').select(SHOWN).where('account_id', '=', accountId).where('deleted_at', 'is', null).orderBy('id').execute();
}

/** The account's endpoints that are not deleted, with the event types each subscribes to (in no set order). */
export function listWebhookSubscriptions(db: Kysely<Database>, accountId: number): Promise<{ id: number; events: string }[]> {
  return db.selectFrom('webhook_endpoints').select(['id', 'events']).where('account_id', '=', accountId).where('deleted_at', 'is', null).execute();
}

export async function countWebhookEndpoints(db: Kysely<Database>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Inserts the endpoint (a database trigger refuses one past the account's cap: webhook_endpoint_cap). */
export function insertWebhookEndpoint(
  db: Kysely<Database>,
  endpoint: { account_id: number; url: string; secret: string; events: string; description: string | null },
): Promise<WebhookEndpointRow> {
  return db.insertInto('webhook_endpoints').values(endpoint).returning(SHOWN).executeTakeFirstOrThrow();
}

export function updateWebhookEndpoint(
  db: Kysely<Database>,
  endpointId: number,
  set: { url?: string; events?: string; description?: string | null },
): Promise<WebhookEndpointRow> {
  return db.updateTable('webhook_endpoints').set(set).where('id', '=', endpointId).returning(SHOWN).executeTakeFirstOrThrow();
}

export async function markWebhookEndpointDeleted(db: Kysely<Database>, endpointId: number, now: Date): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ deleted_at: now }).where('id', '=', endpointId).execute();
}
