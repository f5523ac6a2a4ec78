import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export function findWorkspace(
  db: Kysely<Database>,
  accountId: number,
  workspaceId: number,
): Promise<{ id: number; name: string; created_at: Date } | undefined> {
  return db.selectFrom('workspaces').select(['id', 'name', 'created_at']).where('id', '=', workspaceId).where('account_id', '=', accountId).executeTakeFirst();
}

/** A workspace of the account with this name (compared lower-cased), other than `exceptId`. */
export function findWorkspaceByName(db: Kysely<Database>, accountId: number, name: string, exceptId: number | null): Promise<{ id: number } | undefined> {
  let query = db.selectFrom('workspaces').select('id').where('account_id', '=', accountId).where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return query.executeTakeFirst();
}

/** The workspace with how many domains it holds (throws for an unknown one). */
export function findWorkspaceWithDomainCount(db: Kysely<Database>, workspaceId: number) {
  return db
    .selectFrom('workspaces')
    .select(['id', 'name', 'created_at'])
    .select((eb) =>
      eb.selectFrom('domains').whereRef('domains.workspace_id', '=', 'workspaces.id').select(sql<number>`count(*)::int`.as('n')).as('domain_count'),
    )
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
}

export async function insertWorkspace(db: Kysely<Database>, accountId: number, name: string): Promise<number> {
  const row = await db.insertInto('workspaces').values({ account_id: accountId, name }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function renameWorkspaceRow(db: Kysely<Database>, accountId: number, workspaceId: number, name: string): Promise<void> {
  await db.updateTable('workspaces').set({ name }).where('id', '=', workspaceId).where('account_id', '=', accountId).execute();
}

export async function deleteWorkspaceRow(db: Kysely<Database>, accountId: number, workspaceId: number): Promise<void> {
  await db.deleteFrom('workspaces').where('id', '=', workspaceId).where('account_id', '=', accountId).execute();
}

/** The account's workspaces by name (then id), each with how many domains it holds. */
export function listWorkspacesWithDomainCounts(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('workspaces')
    .select(['id', 'name', 'created_at'])
    .select((eb) =>
      eb.selectFrom('domains').whereRef('domains.workspace_id', '=', 'workspaces.id').select(sql<number>`count(*)::int`.as('n')).as('domain_count'),
    )
    .where('account_id', '=', accountId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}
