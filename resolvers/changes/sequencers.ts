import { DomainError } from '../domain-error.js';

/**
 * The sending tools an order's inboxes can be connected to (SPEC leaves the list open; this is our
 * decision, documented in docs/ordering.md). Values are lower-case identifiers; `none` disconnects.
 */
export const SEQUENCERS = {
  instantly: 'Instantly',
  smartlead: 'Smartlead',
  lemlist: 'lemlist',
  apollo: 'Apollo.io',
  reply: 'Reply.io',
  woodpecker: 'Woodpecker',
  saleshandy: 'Saleshandy',
  outreach: 'Outreach',
  salesloft: 'Salesloft',
  hubspot: 'HubSpot Sequences',
  mailshake: 'Mailshake',
  quickmail: 'QuickMail',
  emelia: 'Emelia',
  plusvibe: 'PlusVibe',
  other: 'another tool (tell us which with a change request)',
  none: 'not connected to a sending tool',
} as const;

export type Sequencer = keyof typeof SEQUENCERS;

export function isSequencer(value: string): value is Sequencer {
  return Object.hasOwn(SEQUENCERS, value);
}

/** The refusal of a value that is not one of ours, on every door (a 400 whose `allowed` lists them). */
export function unknownSequencerError(raw: string): DomainError {
  return new DomainError('unknown_sequencer', `"${raw.slice(0, 40)}" is not a sequencer we connect to; send one of ${Object.keys(SEQUENCERS).join(', ')}.`, {
    allowed: Object.keys(SEQUENCERS),
  });
}
