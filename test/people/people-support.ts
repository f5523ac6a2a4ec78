import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** A new, empty outbox folder for one test file's service, so no other run's messages are read. */
export function freshOutbox(): string {
  return mkdtempSync(join(tmpdir(), 'people-outbox-'));
}
