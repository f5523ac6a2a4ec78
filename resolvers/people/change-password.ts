import { revokeSessionsOfUser } from '../../db/sessions.js';
import { findUserCredentials, setUserPasswordHash } from '../../db/users.js';
import type { Context } from '../context.js';
import { DomainError } from '../domain-error.js';
import { checkPassword, hashPassword } from './passwords.js';
import { requirePassword } from './users.js';
import { signedInPerson } from './signed-in-person.js';
import { revokeAssistantsOfPerson } from '../oauth/connected-assistants.js';

/**
 * A signed-in person sets a new password:
 * 1. the guesses at the current password count against the sign-in allowance of their e-mail, so a
 *    borrowed session cannot try passwords faster than the sign-in form allows;
 * 2. the current password must match (a session left open is not enough to take the account over);
 * 3. the new password is stored, every other session of the person ends (this one stays) and every
 *    assistant they connected is disconnected.
 */
export async function changePassword(
  ctx: Context,
  input: { currentPassword: string; newPassword: string },
): Promise<{ changed: boolean; otherSessionsEnded: number }> {
  const me = await signedInPerson(ctx);
  const { db, rateLimits } = ctx.services;
  const user = await findUserCredentials(db, me.userId);
  await rateLimits.consume('signInEmail', `${ctx.clientAddress} ${user.email}`);
  if (!(await checkPassword(user.password_hash, input.currentPassword.slice(0, 200)))) {
    throw new DomainError(
      'wrong_password',
      'The current password is not right; type the one you sign in with, or sign out and reset it from the sign-in page.',
    );
  }
  const newPassword = requirePassword(input.newPassword);
  if (newPassword === input.currentPassword) throw new DomainError('same_password', 'The new password is the current one; choose a different one.');
  const passwordHash = await hashPassword(newPassword);
  const ended = await db.transaction().execute(async (trx) => {
    await setUserPasswordHash(trx, me.userId, passwordHash);
    // Assistants connected in the person's name go too: whoever knew the old password could have connected one.
    await revokeAssistantsOfPerson(trx, me.userId);
    return revokeSessionsOfUser(trx, me.userId, ctx.now(), me.sessionId);
  });
  return { changed: true, otherSessionsEnded: ended };
}
