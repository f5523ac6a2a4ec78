import { setDomainWorkspace } from '../../db/domains.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { findOwnedDomain, findOwnedWorkspace } from './find-owned.js';

export interface FiledDomain {
  readonly domain: string;
  readonly workspaceId: number | null;
  readonly workspaceName: string | null;
}

/** Files a domain into one of the caller's folders, or unfiles it with a null workspace_id. */
export async function fileDomain(domain: string, input: { readonly workspaceId?: number | null }, ctx: Context): Promise<FiledDomain> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const found = await findOwnedDomain(db, accountId, domain);
  const workspaceId = input.workspaceId ?? null;
  const workspace = workspaceId === null ? null : await findOwnedWorkspace(db, accountId, workspaceId);
  await setDomainWorkspace(db, found.id, workspaceId);
  return { domain: found.domain, workspaceId, workspaceName: workspace?.name ?? null };
}
