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
