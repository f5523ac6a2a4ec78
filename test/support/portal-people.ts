import { randomUUID } from 'node:crypto';
import { createUser } from '../../resolvers/people/users.js';
import type { TestService } from './test-service.js';

/** A new person on an account, made as the operator's create-user does; returns how they sign in. */
export async function createUserInAccount(service: TestService, accountId: number, role: 'owner' | 'member') {
  const email = `person-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'portal test password';
  const userId = await createUser(service.services.db, accountId, email, password, role);
  return { userId, email, password };
}
