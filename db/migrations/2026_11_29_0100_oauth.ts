import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // What the authorization server (oidc-provider) keeps, one row per record of one of its models
  // (Client, Grant, Session, Interaction, AuthorizationCode, AccessToken, RefreshToken, ...): its
  // payload as JSON text, and the columns it is found by. Token models are keyed by the SHA-256 of
  // the token, so the table holds no usable bearer token.
  await db.schema
    .createTable('oauth_records')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('client_id', 'text')
    // The person the record is for: removing them from the account removes their grants and tokens.
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    // A grant's last use by an access token on /mcp, kept to the minute (the portal's "last used").
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('oauth_records_pkey', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oauth_records_grant_id').on('oauth_records').column('grant_id').execute();
  await db.schema.createIndex('oauth_records_uid').on('oauth_records').column('uid').execute();
  await db.schema.createIndex('oauth_records_user_id').on('oauth_records').columns(['user_id', 'model']).execute();
  await db.schema.createIndex('oauth_records_expires_at').on('oauth_records').column('expires_at').execute();
  // The authorization server's own secrets, made at first start and shared by every instance: its
  // signing keys (JWKS) and the keys signing its cookies. One row per kind; the first instance wins.
  await db.schema
    .createTable('oauth_keys')
    .addColumn('kind', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_keys').ifExists().execute();
  await db.schema.dropTable('oauth_records').ifExists().execute();
}
