import { sql } from 'kysely';
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
  const [rows, unfiled] = await Promise.all([
    db
      .selectFrom('workspaces')
      .select(['id', 'name', 'created_at'])
      .select((eb) =>
        eb.selectFrom('domains').whereRef('domains.workspace_id', '=', 'workspaces.id').select(sql<number>`count(*)::int`.as('n')).as('domain_count'),
      )
      .where('account_id', '=', accountId)
      .orderBy('name')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('domains')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('account_id', '=', accountId)
      .where('workspace_id', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    workspaces: rows.map((w) => ({ workspaceId: w.id, name: w.name, domainCount: Number(w.domain_count ?? 0), createdAt: w.created_at })),
    unfiledDomainCount: Number(unfiled.n),
  };
}
