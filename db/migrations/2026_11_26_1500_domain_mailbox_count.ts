import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // The dashboard lists every domain with its mailbox count; counting mailboxes per domain on every
  // read was three quarters of the database's time for a 500-domain account. The count is kept on
  // the domain instead, by statement-level triggers (one grouped UPDATE per INSERT or DELETE
  // statement, however many rows it carries), so every writer keeps it right without knowing of it.
  await db.schema
    .alterTable('domains')
    .addColumn('mailbox_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update domains set mailbox_count = (select count(*) from mailboxes where mailboxes.domain_id = domains.id)`.execute(db);
  await sql`
    create function mailboxes_count_added() returns trigger language plpgsql as $$
    begin
      update domains set mailbox_count = domains.mailbox_count + added.n
        from (select domain_id, count(*)::int as n from added_rows group by domain_id) as added
        where domains.id = added.domain_id;
      return null;
    end $$`.execute(db);
  await sql`
    create function mailboxes_count_removed() returns trigger language plpgsql as $$
    begin
      update domains set mailbox_count = domains.mailbox_count - removed.n
        from (select domain_id, count(*)::int as n from removed_rows group by domain_id) as removed
        where domains.id = removed.domain_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger mailboxes_count_insert after insert on mailboxes referencing new table as added_rows for each statement execute function mailboxes_count_added()`.execute(
    db,
  );
  await sql`create trigger mailboxes_count_delete after delete on mailboxes referencing old table as removed_rows for each statement execute function mailboxes_count_removed()`.execute(
    db,
  );
  // An update counts its rows off their old domain and onto their new one (the same domain nets to
  // nothing); PostgreSQL allows no column list on a trigger with a transition table.
  await sql`create trigger mailboxes_count_update_removed after update on mailboxes referencing old table as removed_rows for each statement execute function mailboxes_count_removed()`.execute(
    db,
  );
  await sql`create trigger mailboxes_count_update_added after update on mailboxes referencing new table as added_rows for each statement execute function mailboxes_count_added()`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of ['mailboxes_count_insert', 'mailboxes_count_delete', 'mailboxes_count_update_removed', 'mailboxes_count_update_added']) {
    await sql`drop trigger if exists ${sql.raw(trigger)} on mailboxes`.execute(db);
  }
  await sql`drop function if exists mailboxes_count_added()`.execute(db);
  await sql`drop function if exists mailboxes_count_removed()`.execute(db);
  await db.schema.alterTable('domains').dropColumn('mailbox_count').execute();
}
