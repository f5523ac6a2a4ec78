import type { Context } from '../context.js';
import { missingScopeError, unauthenticatedError } from './auth-errors.js';
import type { Scope } from './scopes.js';

/**
 * Who may call an operation, asked before anything reads its input: no valid key is a 401, a key
 * without the operation's scope a 403, in the words scope-auth uses. GraphQL coerces variables before
 * any resolver runs, and the doors read paths and bodies before that, so without this a malformed
 * call from a caller without a key would be a 400 or 422 that teaches the input rules. REST, MCP and
 * the in-process runner all ask here; the schema still enforces the same scope on every field
 * (test/account/keys-and-scopes.test.ts checks that the row and the field agree).
 */
export async function refuseWithoutKeyOrScope(scope: Scope | null, ctx: Context): Promise<void> {
  if (scope === null) return;
  const caller = await ctx.caller();
  if (!caller) throw unauthenticatedError(ctx.sentKey);
  if (!caller.scopes.includes(scope)) throw missingScopeError(scope, caller.kind === 'token' ? 'token' : 'key');
}
