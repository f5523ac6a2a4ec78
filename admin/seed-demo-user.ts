import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { generatePassword } from '../resolvers/people/passwords.js';
import { createUser } from '../resolvers/people/users.js';

export interface DemoUser {
  readonly email: string;
  readonly password: string;
  readonly userId: number;
}

/** The demo account's owner, so `npm start` can print a sign-in beside the demo key. */
export async function createDemoUser(db: Kysely<Database>, accountId: number, email = 'demo@example.com'): Promise<DemoUser> {
  const password = generatePassword();
  const userId = await createUser(db, accountId, email, password, 'owner');
  return { email, password, userId };
}
