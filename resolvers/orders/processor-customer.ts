import { findAccountCustomer, setAccountCustomer } from '../../db/accounts.js';
import type { Context } from '../context.js';

/**
 * The account's customer at the payment processor, made on first use and stored on the account
 * (`accounts.processor_customer_id`) so every later call and every webhook finds the account.
 */
export async function ensureProcessorCustomer(ctx: Context, accountId: number): Promise<string> {
  const db = ctx.services.db;
  const account = await findAccountCustomer(db, accountId);
  const { customerId } = await ctx.services.payments.ensureCustomer({ id: account.id, name: account.name, customerId: account.processor_customer_id });
  if (customerId !== account.processor_customer_id) {
    await setAccountCustomer(db, accountId, customerId);
  }
  return customerId;
}
