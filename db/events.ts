import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface NewEventRow {
  readonly id: string;
  readonly account_id: number;
  readonly type: string;
  readonly data: string;
}

/** Inserts the event; its id, or undefined when an event with that id was already there. */
export async function insertEvent(db: Kysely<Database>, event: NewEventRow): Promise<string | undefined> {
  const row = await db
    .insertInto('events')
    .values(event)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export interface EventRow {
  id: string;
  type: string;
  data: string;
  created_at: Date;
}

export function findAccountEvent(db: Kysely<Database>, accountId: number, eventId: string): Promise<{ id: string; created_at: Date } | undefined> {
  return db.selectFrom('events').select(['id', 'created_at']).where('id', '=', eventId).where('account_id', '=', accountId).executeTakeFirst();
}

/**
 * The account's events created at or after `since`, newest first (ties by id, descending), at most
 * `limit`; with `afterId` (an event of the account), only those that come after that event in this
 * order. The cursor's time is compared in SQL, where it keeps its microseconds (a JavaScript Date
 * keeps milliseconds, and events made within one would be skipped).
 */
export function listAccountEvents(
  db: Kysely<Database>,
  accountId: number,
  options: { since: Date; afterId?: string | null; limit: number },
): Promise<EventRow[]> {
  let query = db.selectFrom('events').select(['id', 'type', 'data', 'created_at']).where('account_id', '=', accountId).where('created_at', '>=', options.since);
  const afterId = options.afterId ?? null;
  if (afterId !== null) {
    const cursorTime = db.selectFrom('events as c').select('c.created_at').where('c.id', '=', afterId);
    query = query.where((eb) => eb.or([eb('created_at', '<', cursorTime), eb.and([eb('created_at', '=', cursorTime), eb('id', '<', afterId)])]));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

export function findEventForFanOut(
  db: Kysely<Database>,
  eventId: string,
): Promise<{ id: string; account_id: number; type: string; fanned_out_at: Date | null } | undefined> {
  return db.selectFrom('events').select(['id', 'account_id', 'type', 'fanned_out_at']).where('id', '=', eventId).executeTakeFirst();
}

export async function markEventFannedOut(db: Kysely<Database>, eventId: string, now: Date): Promise<void> {
  await db.updateTable('events').set({ fanned_out_at: now }).where('id', '=', eventId).execute();
}

/** Up to 500 events recorded before `before` and not fanned out yet. */
export function listEventsWaitingFanOut(db: Kysely<Database>, before: Date): Promise<{ id: string }[]> {
  return db.selectFrom('events').select('id').where('fanned_out_at', 'is', null).where('created_at', '<', before).limit(500).execute();
}

/** The account's events not fanned out yet. */
export function listAccountEventsWaitingFanOut(db: Kysely<Database>, accountId: number): Promise<{ id: string }[]> {
  return db.selectFrom('events').select('id').where('account_id', '=', accountId).where('fanned_out_at', 'is', null).execute();
}

export function findEvent(db: Kysely<Database>, eventId: string) {
  return db.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirst();
}

export async function countEventsWaitingFanOut(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('events').select(sql<number>`count(*)`.as('n')).where('fanned_out_at', 'is', null).executeTakeFirst();
  return Number(row?.n ?? 0);
}
