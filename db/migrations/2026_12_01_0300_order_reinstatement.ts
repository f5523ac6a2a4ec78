import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application.
export async function up(db: Kysely<any>): Promise<void> {
  // When the order's subscription ended (the processor event's time), which starts the grace period
  // in which the customer may reinstate it; and when it was last reinstated.
  await db.schema.alterTable('orders').addColumn('cancelled_at', 'timestamptz').execute();
  await db.schema.alterTable('orders').addColumn('reinstated_at', 'timestamptz').execute();
  // Orders cancelled before this column: the newest processor event applied to them is the one that cancelled them.
  await sql`update orders set cancelled_at = to_timestamp(processor_event_created) where status = 'cancelled' and processor_event_created is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('reinstated_at').execute();
  await db.schema.alterTable('orders').dropColumn('cancelled_at').execute();
}
