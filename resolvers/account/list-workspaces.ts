import { countUnfiledDomains } from '../../db/domains.js';
import { listWorkspacesWithDomainCounts } from '../../db/workspaces.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';

export interface WorkspaceSummary {
  readonly workspaceId: number;
  readonly name: string;
  readonly domainCount: number;
  readonly createdAt: Date;
}

export interface WorkspaceList {
  readonly workspaces: readonly WorkspaceSummary[];
  /** Domains filed in no folder. */
  readonly unfiledDomainCount: number;
}

export async function listWorkspaces(ctx: Context): Promise<WorkspaceList> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const [rows, unfiled] = await Promise.all([listWorkspacesWithDomainCounts(db, accountId), countUnfiledDomains(db, accountId)]);
  return {
    workspaces: rows.map((w) => ({ workspaceId: w.id, name: w.name, domainCount: Number(w.domain_count ?? 0), createdAt: w.created_at })),
    unfiledDomainCount: unfiled,
  };
}
