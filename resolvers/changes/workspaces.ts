import { sql } from 'kysely';
import { ApiError } from '../api-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import type { WorkspaceSummary } from '../account/list-workspaces.js';
import { findOwnedWorkspace } from './find-owned.js';
import { checkWorkspaceName } from './workspace-name.js';

export interface DeletedWorkspace {
  readonly workspaceId: number;
  readonly deleted: true;
  /** How many domains it held; they are kept, filed in no workspace. */
  readonly unfiledDomainCount: number;
}

/** Two folders of one account with the same name (ignoring case) would be told apart by nobody. */
async function refuseDuplicateName(ctx: Context, accountId: number, name: string, exceptId: number | null): Promise<void> {
  let query = ctx.services.db
    .selectFrom('workspaces')
    .select('id')
    .where('account_id', '=', accountId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  const clash = await query.executeTakeFirst();
  if (clash) throw new ApiError(409, 'workspace_name_taken', `You already have a workspace named "${name}" (workspace_id ${clash.id}); choose another name.`);
}

async function summary(ctx: Context, workspaceId: number): Promise<WorkspaceSummary> {
  const row = await ctx.services.db
    .selectFrom('workspaces')
    .select(['id', 'name', 'created_at'])
    .select((eb) =>
      eb.selectFrom('domains').whereRef('domains.workspace_id', '=', 'workspaces.id').select(sql<number>`count(*)::int`.as('n')).as('domain_count'),
    )
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return { workspaceId: row.id, name: row.name, domainCount: Number(row.domain_count ?? 0), createdAt: row.created_at };
}

export async function createWorkspace(input: { readonly name: string }, ctx: Context): Promise<WorkspaceSummary> {
  const accountId = await requireAccountId(ctx);
  const name = checkWorkspaceName(input.name);
  await refuseDuplicateName(ctx, accountId, name, null);
  const row = await ctx.services.db.insertInto('workspaces').values({ account_id: accountId, name }).returning('id').executeTakeFirstOrThrow();
  return summary(ctx, row.id);
}

export async function renameWorkspace(workspaceId: number, input: { readonly name: string }, ctx: Context): Promise<WorkspaceSummary> {
  const accountId = await requireAccountId(ctx);
  await findOwnedWorkspace(ctx.services.db, accountId, workspaceId);
  const name = checkWorkspaceName(input.name);
  await refuseDuplicateName(ctx, accountId, name, workspaceId);
  await ctx.services.db.updateTable('workspaces').set({ name }).where('id', '=', workspaceId).where('account_id', '=', accountId).execute();
  return summary(ctx, workspaceId);
}

/** Removes the folder; its domains stay on their orders, filed in no folder (SPEC 4.2). */
export async function deleteWorkspace(workspaceId: number, ctx: Context): Promise<DeletedWorkspace> {
  const accountId = await requireAccountId(ctx);
  return ctx.services.db.transaction().execute(async (trx) => {
    await findOwnedWorkspace(trx, accountId, workspaceId);
    const unfiled = await trx
      .updateTable('domains')
      .set({ workspace_id: null })
      .where('workspace_id', '=', workspaceId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    await trx.deleteFrom('workspaces').where('id', '=', workspaceId).where('account_id', '=', accountId).execute();
    return { workspaceId, deleted: true as const, unfiledDomainCount: Number(unfiled.numUpdatedRows) };
  });
}
