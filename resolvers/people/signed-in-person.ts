import type { Context } from '../context.js';
import { unauthenticatedError } from '../auth/auth-errors.js';
import type { Role } from './users.js';

export interface SignedInPerson {
  readonly accountId: number;
  readonly userId: number;
  readonly role: Role;
  /** The session this request came with (kept when the person changes their password). */
  readonly sessionId: string;
}

/** The signed-in person; fields reach here only after scope-auth admitted a session. */
export async function signedInPerson(ctx: Context): Promise<SignedInPerson> {
  const caller = await ctx.caller();
  if (!caller || caller.kind !== 'session' || caller.userId === null || caller.role === null || caller.sessionId === null) {
    throw unauthenticatedError(ctx.sentKey);
  }
  return { accountId: caller.accountId, userId: caller.userId, role: caller.role, sessionId: caller.sessionId };
}
