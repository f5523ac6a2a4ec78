import { DomainError } from '../domain-error.js';

/**
 * The kinds of change request (SPEC names only `forwarding`; the rest are our decision, documented in
 * docs/ordering.md). `forwarding` is applied at once to every domain of the order; every other kind
 * waits for a person, who replies in the request's thread.
 */
export const REQUEST_KINDS = {
  forwarding: 'Point every domain of the order at a new forward_to domain (applied at once).',
  rename_mailbox: 'Rename a mailbox or change its display name.',
  add_mailboxes: 'Add mailboxes to domains already on the order.',
  remove_mailboxes: 'Remove mailboxes from the order.',
  remove_domain: 'Take a domain off the order.',
  dns_change: 'Change a DNS record we manage for the order.',
  cancel_order: 'Cancel the order at the end of its billing period.',
  billing: 'A question or correction about an invoice.',
  other: 'Anything else.',
} as const;

export type RequestKind = keyof typeof REQUEST_KINDS;

export function isRequestKind(value: string): value is RequestKind {
  return Object.hasOwn(REQUEST_KINDS, value);
}

/** The refusal of a kind that is not one of ours, on every door (a 400 whose `allowed` lists them). */
export function unknownRequestKindError(raw: string): DomainError {
  return new DomainError('unknown_request_kind', `"${raw.slice(0, 40)}" is not a kind of request; send one of ${Object.keys(REQUEST_KINDS).join(', ')}.`, {
    allowed: Object.keys(REQUEST_KINDS),
  });
}
