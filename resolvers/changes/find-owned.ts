import { findAccountDomain } from '../../db/domains.js';
import { findAccountOrderSettings } from '../../db/orders.js';
import { findWorkspace } from '../../db/workspaces.js';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DomainError, operation, sentence } from '../domain-error.js';

type Db = Kysely<Database> | Transaction<Database>;

/*
 * Another account's record is answered exactly like one that does not exist (same status, same
 * sentence), so ids cannot be probed to learn what other accounts hold.
 */

export async function findOwnedWorkspace(db: Db, accountId: number, workspaceId: number) {
  const row = await findWorkspace(db, accountId, workspaceId);
  if (!row)
    throw new DomainError('workspace_not_found', sentence`There is no workspace ${workspaceId} on this account; ${operation('list_workspaces')} lists yours.`);
  return row;
}

export async function findOwnedOrder(db: Db, accountId: number, subscriptionId: string) {
  const row = await findAccountOrderSettings(db, accountId, subscriptionId);
  if (!row)
    throw new DomainError(
      'order_not_found',
      sentence`There is no order with subscription_id "${subscriptionId.slice(0, 80)}" on this account; ${operation('list_orders')} lists yours.`,
    );
  return row;
}

export async function findOwnedDomain(db: Db, accountId: number, domain: string) {
  const name = domain.trim().toLowerCase().replace(/\.$/, '');
  const row = await findAccountDomain(db, accountId, name);
  if (!row)
    throw new DomainError('domain_not_found', sentence`There is no domain "${name.slice(0, 253)}" on this account; ${operation('get_dashboard')} lists yours.`);
  return row;
}
