import { findAccountDomain } from '../../db/domains.js';
import { findAccountOrderSettings } from '../../db/orders.js';
import { findWorkspace } from '../../db/workspaces.js';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../api-error.js';

type Db = Kysely<Database> | Transaction<Database>;

/*
 * Another account's record is answered exactly like one that does not exist (same status, same
 * sentence), so ids cannot be probed to learn what other accounts hold.
 */

export async function findOwnedWorkspace(db: Db, accountId: number, workspaceId: number) {
  const row = await findWorkspace(db, accountId, workspaceId);
  if (!row) throw new ApiError(404, 'workspace_not_found', `There is no workspace ${workspaceId} on this account; GET /v1/portal/workspaces lists yours.`);
  return row;
}

export async function findOwnedOrder(db: Db, accountId: number, subscriptionId: string) {
  const row = await findAccountOrderSettings(db, accountId, subscriptionId);
  if (!row)
    throw new ApiError(
      404,
      'order_not_found',
      `There is no order with subscription_id "${subscriptionId.slice(0, 80)}" on this account; GET /v1/portal/orders lists yours.`,
    );
  return row;
}

export async function findOwnedDomain(db: Db, accountId: number, domain: string) {
  const name = domain.trim().toLowerCase().replace(/\.$/, '');
  const row = await findAccountDomain(db, accountId, name);
  if (!row) throw new ApiError(404, 'domain_not_found', `There is no domain "${name.slice(0, 253)}" on this account; GET /v1/portal/dashboard lists yours.`);
  return row;
}
