/** What a customer can subscribe a webhook endpoint to (docs/operations.md describes each). */
export const EVENT_TYPES = [
  'order.placed',
  'domain.live',
  'domain.needs_attention',
  'domain.listed',
  'domain.delisted',
  'monitor.changed',
  'invoice.past_due',
  'webhook.test',
  'invoice.paid',
  'mailbox.disconnected',
  'mailbox.reconnected',
  'mailbox.credentials_revealed',
  'mailbox.password_reset',
  'mailbox.suspended',
  'mailbox.reactivated',
  'dmarc.failures',
  'tls.failures',
  'domain.dmarc_advanced',
  'domain.dmarc_reverted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
