import type { Context } from '../context.js';

/**
 * The account's customer at the payment processor, made on first use and stored on the account
 * (`accounts.processor_customer_id`) so every later call and every webhook finds the account.
 */
export async function ensureProcessorCustomer(ctx: Context, accountId: number): Promise<string> {
  const db = ctx.services.db;
  const account = await db.selectFrom('accounts').select(['id', 'name', 'processor_customer_id']).where('id', '=', accountId).executeTakeFirstOrThrow();
  const { customerId } = await ctx.services.payments.ensureCustomer({ id: account.id, name: account.name, customerId: account.processor_customer_id });
  if (customerId !== account.processor_customer_id) {
    await db.updateTable('accounts').set({ processor_customer_id: customerId }).where('id', '=', accountId).execute();
  }
  return customerId;
}
