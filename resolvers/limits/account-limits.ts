import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findAccountLimitsRow, updateAccountLimits, type AccountLimitsRow } from '../../db/accounts.js';

/**
 * An account's own allowances, set by the operator; a null field uses the service-wide default
 * (RATE_LIMIT_CLASSES). They travel with the caller, read with the key on every request.
 */
export interface AccountLimits {
  readonly readPerMinute: number | null;
  readonly changePerMinute: number | null;
  readonly ordersPerHour: number | null;
}

/** The allowance an account's limits set for one rate-limit class, or undefined for the default. */
export function accountAllowance(limits: AccountLimits, kind: 'read' | 'change' | 'order'): number | undefined {
  const value = kind === 'read' ? limits.readPerMinute : kind === 'change' ? limits.changePerMinute : limits.ordersPerHour;
  return value ?? undefined;
}

export async function findAccountLimits(db: Kysely<Database>, accountId: number): Promise<AccountLimits | null> {
  const row = await findAccountLimitsRow(db, accountId);
  return row ? { readPerMinute: row.read_per_minute, changePerMinute: row.change_per_minute, ordersPerHour: row.orders_per_hour } : null;
}

/** Sets the given fields (a field left undefined keeps its value; null returns it to the default). */
export async function setAccountLimits(db: Kysely<Database>, accountId: number, change: Partial<AccountLimits>): Promise<void> {
  const set: Partial<AccountLimitsRow> = {};
  if (change.readPerMinute !== undefined) set.read_per_minute = change.readPerMinute;
  if (change.changePerMinute !== undefined) set.change_per_minute = change.changePerMinute;
  if (change.ordersPerHour !== undefined) set.orders_per_hour = change.ordersPerHour;
  if (Object.keys(set).length === 0) return;
  await updateAccountLimits(db, accountId, set);
}
