import { unfileWorkspaceDomains } from '../../db/domains.js';
import { deleteWorkspaceRow, findWorkspaceByName, findWorkspaceWithDomainCount, insertWorkspace, renameWorkspaceRow } from '../../db/workspaces.js';
import { DomainError } from '../domain-error.js';
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
  const clash = await findWorkspaceByName(ctx.services.db, accountId, name, exceptId);
  if (clash) throw new DomainError('workspace_name_taken', `You already have a workspace named "${name}" (workspace_id ${clash.id}); choose another name.`);
}

async function summary(ctx: Context, workspaceId: number): Promise<WorkspaceSummary> {
  const row = await findWorkspaceWithDomainCount(ctx.services.db, workspaceId);
  return { workspaceId: row.id, name: row.name, domainCount: Number(row.domain_count ?? 0), createdAt: row.created_at };
}

export async function createWorkspace(input: { readonly name: string }, ctx: Context): Promise<WorkspaceSummary> {
  const accountId = await requireAccountId(ctx);
  const name = checkWorkspaceName(input.name);
  await refuseDuplicateName(ctx, accountId, name, null);
  return summary(ctx, await insertWorkspace(ctx.services.db, accountId, name));
}

export async function renameWorkspace(workspaceId: number, input: { readonly name: string }, ctx: Context): Promise<WorkspaceSummary> {
  const accountId = await requireAccountId(ctx);
  await findOwnedWorkspace(ctx.services.db, accountId, workspaceId);
  const name = checkWorkspaceName(input.name);
  await refuseDuplicateName(ctx, accountId, name, workspaceId);
  await renameWorkspaceRow(ctx.services.db, accountId, workspaceId, name);
  return summary(ctx, workspaceId);
}

/** Removes the folder; its domains stay on their orders, filed in no folder (SPEC 4.2). */
export async function deleteWorkspace(workspaceId: number, ctx: Context): Promise<DeletedWorkspace> {
  const accountId = await requireAccountId(ctx);
  return ctx.services.db.transaction().execute(async (trx) => {
    await findOwnedWorkspace(trx, accountId, workspaceId);
    const unfiledDomainCount = await unfileWorkspaceDomains(trx, accountId, workspaceId);
    await deleteWorkspaceRow(trx, accountId, workspaceId);
    return { workspaceId, deleted: true as const, unfiledDomainCount };
  });
}
