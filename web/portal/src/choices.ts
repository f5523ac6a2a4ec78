/**
 * The fixed choices the service accepts where the schema types the value as a plain String: the
 * sequencer of an order (setSequencer) and the period of the analytics query. Each list is the one
 * place the portal reads them from, so when the schema turns either into an enum only its list
 * changes. The portal does not import the server's lists (resolvers/changes/sequencers.ts,
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


/** The analytics query's periods, each ending today. */
export const PERIOD_CHOICES = [
  { value: '1d', label: 'Today' },
  { value: '7d', label: 'Last 7 days' },
  { value: '14d', label: 'Last 14 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
] as const;

