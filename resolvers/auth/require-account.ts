import { unauthenticatedError } from './auth-errors.js';
import type { Context } from '../context.js';

/** The caller's account id. Fields reach here only after scope-auth admitted a valid key. */
export async function requireAccountId(ctx: Context): Promise<number> {
  const caller = await ctx.caller();
  if (!caller) throw unauthenticatedError(ctx.sentKey);
  return caller.accountId;
}
