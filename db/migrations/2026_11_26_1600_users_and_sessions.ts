import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // People who sign in to the portal; each belongs to one account. The e-mail is stored lower-cased.
  await db.schema
    .createTable('users')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'member')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Server-side sessions: the id is the SHA-256 of the cookie's random token, so a leaked table
  // signs no one in.
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  // One-use links sent by e-mail: password resets (user_id set) and invitations (account_id, email, role).
  await db.schema
    .createTable('user_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('password_reset', 'invitation')`))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('role', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .alterTable('api_keys')
    .addColumn('name', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('name').dropColumn('created_by_user_id').execute();
  await db.schema.dropTable('user_tokens').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
