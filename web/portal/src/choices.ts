/**
 * The fixed choices of two enums, with the words people know them by: the sequencer of an order
 * (Sequencer) and the period of the analytics query (AnalyticsPeriod). Each list is the one place
 * the portal reads them from. The portal does not import the server's lists (resolvers/changes/sequencers.ts,
 * ANALYTICS_PERIODS in resolvers/account/get-analytics.ts): the build's change detection reads only
 * web/portal, and the analytics module brings the database with it. test/web/portal-orders.test.ts
 * compares the pages' options with the server's lists, so the two cannot drift apart unnoticed.
 */

/** setSequencer's values, in the service's order, with the names people know them by. */
export const SEQUENCER_CHOICES = [
  { value: 'instantly', label: 'Instantly' },
  { value: 'smartlead', label: 'Smartlead' },
  { value: 'lemlist', label: 'lemlist' },
  { value: 'apollo', label: 'Apollo.io' },
  { value: 'reply', label: 'Reply.io' },
  { value: 'woodpecker', label: 'Woodpecker' },
  { value: 'saleshandy', label: 'Saleshandy' },
  { value: 'outreach', label: 'Outreach' },
  { value: 'salesloft', label: 'Salesloft' },
  { value: 'hubspot', label: 'HubSpot Sequences' },
  { value: 'mailshake', label: 'Mailshake' },
  { value: 'quickmail', label: 'QuickMail' },
  { value: 'emelia', label: 'Emelia' },
  { value: 'plusvibe', label: 'PlusVibe' },
  { value: 'other', label: 'Another tool (name it in a change request)' },
  { value: 'none', label: 'None (not connected)' },
] as const;

/** The analytics query's periods, each ending today (GraphQL's AnalyticsPeriod: P7D is REST's 7d). */
export const PERIOD_CHOICES = [
  { value: 'P1D', label: 'Today' },
  { value: 'P7D', label: 'Last 7 days' },
  { value: 'P14D', label: 'Last 14 days' },
  { value: 'P30D', label: 'Last 30 days' },
  { value: 'P90D', label: 'Last 90 days' },
] as const;
