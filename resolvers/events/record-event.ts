import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { insertEvent } from '../../db/events.js';
import type { EventType } from './event-types.js';
import { z } from 'zod';

/** An event's data as recordEvent stores it: a JSON object. */
const EventData = z.record(z.string(), z.unknown());

/**
 * Records an event, inside the caller's transaction when it has one: the state change and its event
 * commit together, so a change made once yields one event whichever instance made it. An explicit id
 * (deterministic, such as `evt_order_placed_12`) makes a repeated call record nothing new.
 * Returns the id, or null when an event with that id was already there.
 */
export async function recordEvent(
  db: Kysely<Database>,
  accountId: number,
  type: EventType,
  data: Record<string, unknown>,
  id?: string,
): Promise<string | null> {
  const eventId = id ?? `evt_${randomBytes(12).toString('hex')}`;
  return (await insertEvent(db, { id: eventId, account_id: accountId, type, data: JSON.stringify(data) })) ?? null;
}

/** The event as webhooks deliver it and the API lists it. */
export interface EventBody {
  readonly id: string;
  readonly type: string;
  readonly created: string;
  readonly data: Record<string, unknown>;
}

export function eventBody(row: { id: string; type: string; created_at: Date | string; data: string }): EventBody {
  return { id: row.id, type: row.type, created: new Date(row.created_at).toISOString(), data: EventData.parse(JSON.parse(row.data)) };
}
