import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUser } from '../../resolvers/people/users.js';
import type { TestService } from '../support/test-service.js';
import { signIn } from '../auth/auth-support.js';

export const PASSWORD = 'correct horse battery';

/** A new account with its owner, made in the database (sign-up itself goes by e-mail), and the owner signed in. */
export async function signUpDirect(service: TestService, email: string, accountName = `Account of ${email}`) {
  const account = await service.services.db.insertInto('accounts').values({ name: accountName }).returning('id').executeTakeFirstOrThrow();
  const userId = await createUser(service.services.db, account.id, email, PASSWORD, 'owner');
  const { cookie } = await signIn(service, email, PASSWORD);
  return { accountId: account.id, userId, cookie };
}

/** Every message written to the outbox for `to`, oldest first, with quoted-printable soft breaks and =3D undone. */
export function mailsTo(outbox: string, to: string): string[] {
  return readdirSync(outbox)
    .map((f) => ({ f, at: readFileSync(join(outbox, f), 'utf8') }))
    .map(({ at }) => at.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((m) => m.includes(`To: ${to}`));
}

/** The token of the last link to `path` mailed to `to`. */
export function tokenMailedTo(outbox: string, to: string, path: string): string {
  const mails = mailsTo(outbox, to);
  const token = new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(mails.at(-1) ?? '')?.[1];
  if (!token) throw new Error(`no ${path} link mailed to ${to}`);
  return token;
}
