import type { Kysely } from 'kysely';
import type { Database, DnsConnectionRow, NewDnsConnection } from './schema.js';

/** The account's connections that are not deleted, oldest first. */
export function findDnsConnectionsByAccount(db: Kysely<Database>, accountId: number): Promise<DnsConnectionRow[]> {
  return db.selectFrom('dns_connections').selectAll().where('account_id', '=', accountId).where('deleted_at', 'is', null).orderBy('id').execute();
}

/** One connection of the account, or undefined when it is another account's, deleted or unknown. */
export function findDnsConnection(db: Kysely<Database>, accountId: number, connectionId: number): Promise<DnsConnectionRow | undefined> {
  return db
    .selectFrom('dns_connections')
    .selectAll()
    .where('id', '=', connectionId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function countDnsConnections(db: Kysely<Database>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('dns_connections')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function insertDnsConnection(db: Kysely<Database>, connection: NewDnsConnection): Promise<DnsConnectionRow> {
  return db.insertInto('dns_connections').values(connection).returningAll().executeTakeFirstOrThrow();
}

/** Marks the connection deleted and drops its sealed secret: a deleted connection keeps no credential. */
export async function deleteDnsConnectionRow(db: Kysely<Database>, accountId: number, connectionId: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('dns_connections')
    .set({ deleted_at: now, secret_sealed: '' })
    .where('id', '=', connectionId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
