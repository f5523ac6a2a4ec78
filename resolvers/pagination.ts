import { DomainError, input, sentence } from './domain-error.js';

/** The most items one page holds, on every paged list (as GET /v1/events and /v1/portal/reports). */
export const MAX_PAGE_LIMIT = 100;

/** Items per page when the caller does not say (Stripe's default, as GET /v1/events). */
export const DEFAULT_PAGE_LIMIT = 10;

/**
 * What a paged list is asked for. REST and MCP send `limit` and `starting_after`; GraphQL's
 * connections send `first` and `after`; both reach the resolver as these two.
 */
export interface PageArgs {
  readonly first?: number | null;
  readonly after?: string | null;
}

export interface PageRequest {
  readonly limit: number;
  /** The cursor the page continues after; null for the first page. */
  readonly after: string | null;
}

/**
 * One page of a list: the items, whether more follow, and each item's cursor (its id, as text: the
 * value REST's `starting_after` and GraphQL's `after` take to continue after it).
 */
export interface Page<T> {
  readonly items: readonly T[];
  readonly hasMore: boolean;
  /** The page was asked for after a cursor (so items come before it). */
  readonly afterCursor: boolean;
  readonly cursorOf: (item: T) => string;
}

/** The page size and cursor, checked: a limit from 1 to 100 (default 10); an empty cursor is no cursor. */
export function readPageArgs(args: PageArgs, defaultLimit: number = DEFAULT_PAGE_LIMIT): PageRequest {
  const limit = args.first ?? defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw new DomainError('invalid_limit', sentence`"${input('page_limit')}" is a whole number from 1 to ${MAX_PAGE_LIMIT}, not ${limit}.`);
  const after = args.after === undefined || args.after === null || args.after === '' ? null : args.after;
  return { limit, after };
}

/**
 * The refusal of a cursor that names nothing of the caller's: unknown, from another account (or
 * another endpoint's list), or not the kind of id the list takes. `what` says what it must be.
 */
export function invalidCursor(what: string, given: string): DomainError {
  return new DomainError(
    'invalid_starting_after',
    sentence`"${input('page_cursor')}" must be ${what} from a previous page of this list; "${given.slice(0, 60)}" is not one of yours. Leave it out for the first page.`,
  );
}

/** A cursor that must be a whole number (an order or delivery id): the number, or null when it is not one. */
export function numericCursor(cursor: string): number | null {
  return /^\d{1,9}$/.test(cursor) ? Number(cursor) : null;
}

/** Makes a page from rows fetched with one more than the limit (the extra row says more follow). */
export function pageOf<T>(rows: readonly T[], request: PageRequest, cursorOf: (item: T) => string): Page<T> {
  return { items: rows.slice(0, request.limit), hasMore: rows.length > request.limit, afterCursor: request.after !== null, cursorOf };
}
