import { findAccountEvent, listAccountEvents } from '../../db/events.js';
import { badRequest } from '../api-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { eventBody, type EventBody } from './record-event.js';

/** How far back the events list reaches. */
export const EVENTS_KEPT_DAYS = 30;

export interface EventPage {
  readonly data: readonly EventBody[];
  readonly hasMore: boolean;
}

/**
 * The account's events of the last 30 days, newest first, Stripe-style: `limit` (1-100, default 10)
 * and `starting_after` (an event id from the previous page: the page continues after it).
 */
export async function listEvents(args: { limit?: number | null; startingAfter?: string | null }, ctx: Context): Promise<EventPage> {
  const accountId = await requireAccountId(ctx);
  const limit = args.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw badRequest('invalid_limit', `"limit" is a whole number from 1 to 100, not ${limit}.`);
  const db = ctx.services.db;
  const since = new Date(Date.now() - EVENTS_KEPT_DAYS * 86_400_000);
  let after: { id: string; created_at: Date } | undefined;
  if (args.startingAfter) {
    after = await findAccountEvent(db, accountId, args.startingAfter);
    if (!after)
      throw badRequest(
        'invalid_starting_after',
        `"starting_after" must be an event id from a previous page (evt_...); ${args.startingAfter.slice(0, 60)} is not one of yours.`,
      );
  }
  const rows = await listAccountEvents(db, accountId, { since, after, limit: limit + 1 });
  return { data: rows.slice(0, limit).map(eventBody), hasMore: rows.length > limit };
}
