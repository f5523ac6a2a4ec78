import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The e-mail addresses of the account's people, in no set order. */
export async function listUserEmails(db: Kysely<Database>, accountId: number): Promise<string[]> {
  const rows = await db.selectFrom('users').select('email').where('account_id', '=', accountId).execute();
  return rows.map((r) => r.email);
}

export function findUserIdByEmail(db: Kysely<Database>, email: string): Promise<{ id: number } | undefined> {
  return db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
}

/** What signing in needs of the person with this address: their account, role and password hash. */
export function findUserSignIn(
  db: Kysely<Database>,
  email: string,
): Promise<{ id: number; account_id: number; role: 'owner' | 'member'; password_hash: string } | undefined> {
  return db.selectFrom('users').select(['id', 'account_id', 'role', 'password_hash']).where('email', '=', email).executeTakeFirst();
}

export function findUserAccountByEmail(db: Kysely<Database>, email: string): Promise<{ account_id: number } | undefined> {
  return db.selectFrom('users').select('account_id').where('email', '=', email).executeTakeFirst();
}

export async function insertUser(
  db: Kysely<Database>,
  user: { account_id: number; email: string; password_hash: string; role: 'owner' | 'member' },
): Promise<number> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findUserCredentials(db: Kysely<Database>, userId: number): Promise<{ email: string; password_hash: string }> {
  return db.selectFrom('users').select(['email', 'password_hash']).where('id', '=', userId).executeTakeFirstOrThrow();
}

export async function setUserPasswordHash(db: Kysely<Database>, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** The person and their account's name (throws for an unknown person). */
export function findUserWithAccount(
  db: Kysely<Database>,
  userId: number,
): Promise<{ id: number; email: string; role: 'owner' | 'member'; account_id: number; name: string }> {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'users.email', 'users.role', 'accounts.id as account_id', 'accounts.name'])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** The account's people, oldest first. */
export function listUsers(db: Kysely<Database>, accountId: number): Promise<{ id: number; email: string; role: 'owner' | 'member'; created_at: Date }[]> {
  return db.selectFrom('users').select(['id', 'email', 'role', 'created_at']).where('account_id', '=', accountId).orderBy('id').execute();
}

/** The account's people, their rows locked (FOR UPDATE, in id order) until the transaction ends. */
export function lockUsersOfAccount(db: Kysely<Database>, accountId: number): Promise<{ id: number; email: string; role: 'owner' | 'member' }[]> {
  return db.selectFrom('users').select(['id', 'email', 'role']).where('account_id', '=', accountId).orderBy('id').forUpdate().execute();
}

export async function deleteUser(db: Kysely<Database>, userId: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

export function setUserRole(
  db: Kysely<Database>,
  userId: number,
  role: 'owner' | 'member',
): Promise<{ id: number; email: string; role: 'owner' | 'member'; created_at: Date }> {
  return db.updateTable('users').set({ role }).where('id', '=', userId).returning(['id', 'email', 'role', 'created_at']).executeTakeFirstOrThrow();
}

export function findUserEmail(db: Kysely<Database>, userId: number): Promise<{ email: string } | undefined> {
  return db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
}

/** The account's first `limit` owners' addresses, oldest first. */
export async function listOwnerEmails(db: Kysely<Database>, accountId: number, limit: number): Promise<{ email: string }[]> {
  return db.selectFrom('users').select('email').where('account_id', '=', accountId).where('role', '=', 'owner').orderBy('id').limit(limit).execute();
}
