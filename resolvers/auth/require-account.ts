import { ApiError } from '../api-error.js';
import type { Context } from '../context.js';

/** The caller's account id. Fields reach here only after scope-auth admitted a valid key. */
export async function requireAccountId(ctx: Context): Promise<number> {
  const caller = await ctx.caller();
  if (!caller) throw new ApiError(401, 'unauthenticated', 'This call needs an API key: send "Authorization: Bearer <key>".');
  return caller.accountId;
}
