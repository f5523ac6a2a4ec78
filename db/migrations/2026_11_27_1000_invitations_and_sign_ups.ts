import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // Invitations name who sent them (the e-mail and the accept page say so); a sign-up waits for its
  // address to be confirmed by e-mail, holding the account's name and the password's hash until then.
  await db.schema
    .alterTable('user_tokens')
    .addColumn('invited_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('account_name', 'text')
    .addColumn('password_hash', 'text')
    .execute();
  await sql`alter table user_tokens drop constraint user_tokens_purpose_check`.execute(db);
  await sql`alter table user_tokens add constraint user_tokens_purpose_check check (purpose in ('password_reset', 'invitation', 'sign_up'))`.execute(db);
  await db.schema.createIndex('user_tokens_account_email').on('user_tokens').columns(['account_id', 'email']).execute();
  await db.schema.createIndex('user_tokens_user_id').on('user_tokens').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_tokens_user_id').execute();
  await db.schema.dropIndex('user_tokens_account_email').execute();
  await sql`delete from user_tokens where purpose = 'sign_up'`.execute(db);
  await sql`alter table user_tokens drop constraint user_tokens_purpose_check`.execute(db);
  await sql`alter table user_tokens add constraint user_tokens_purpose_check check (purpose in ('password_reset', 'invitation'))`.execute(db);
  await db.schema.alterTable('user_tokens').dropColumn('invited_by_user_id').dropColumn('account_name').dropColumn('password_hash').execute();
}
