import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // An attempt is claimed (its row inserted) before the POST and finished after it, so every POST has
  // its row, a second worker cannot send the same attempt, and an attempt cut off by a dead worker
  // shows as interrupted. Rows from before this migration were written after their POST: finished.
  await db.schema.alterTable('webhook_attempts').addColumn('finished_at', 'timestamptz').addColumn('account_id', 'integer').execute();
  await sql`update webhook_attempts set finished_at = at`.execute(db);
  await sql`update webhook_attempts a set account_id = e.account_id
              from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where d.id = a.delivery_id`.execute(db);
  // In-flight attempts per account (the per-account cap on concurrent deliveries reads this).
  await sql`create index webhook_attempts_in_flight on webhook_attempts (account_id) where finished_at is null`.execute(db);

  // At most 10 live endpoints per account, held by the database: the account's row is locked first, so
  // parallel creates are counted one after another (each statement of a PL/pgSQL function sees what
  // committed before it under READ COMMITTED).
  await sql`
    create function webhook_endpoints_cap() returns trigger language plpgsql as $$
    begin
      perform 1 from accounts where id = new.account_id for update;
      if (select count(*) from webhook_endpoints where account_id = new.account_id and deleted_at is null) >= 10 then
        raise exception 'webhook_endpoint_cap: an account may have 10 webhook endpoints' using errcode = 'check_violation';
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger webhook_endpoints_cap before insert on webhook_endpoints for each row execute function webhook_endpoints_cap()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists webhook_endpoints_cap on webhook_endpoints`.execute(db);
  await sql`drop function if exists webhook_endpoints_cap()`.execute(db);
  await sql`drop index if exists webhook_attempts_in_flight`.execute(db);
  await db.schema.alterTable('webhook_attempts').dropColumn('finished_at').dropColumn('account_id').execute();
}
