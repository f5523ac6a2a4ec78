import { findAccountEvent, listAccountEvents } from '../../db/events.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { invalidCursor, pageOf, readPageArgs, type Page, type PageArgs } from '../pagination.js';
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
  const page = await listEventsPage({ first: args.limit, after: args.startingAfter }, ctx);
  return { data: page.items, hasMore: page.hasMore };
}

/** The same list as a page of a connection (GraphQL's eventsConnection: first, after). */
export async function listEventsPage(args: PageArgs, ctx: Context): Promise<Page<EventBody>> {
  const accountId = await requireAccountId(ctx);
  const request = readPageArgs(args);
  const db = ctx.services.db;
  const since = new Date(Date.now() - EVENTS_KEPT_DAYS * 86_400_000);
  if (request.after !== null && !(await findAccountEvent(db, accountId, request.after))) throw invalidCursor('an event id (evt_...)', request.after);
  const rows = await listAccountEvents(db, accountId, { since, afterId: request.after, limit: request.limit + 1 });
  return pageOf(rows.map(eventBody), request, (e) => e.id);
}
