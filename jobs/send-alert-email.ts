import { findAlertEmail, insertAlertEmail } from '../db/alert-emails.js';
import { findEvent } from '../db/events.js';
import { recordAlertEmail } from '../observability/metrics.js';
import { eventBody } from '../resolvers/events/record-event.js';
import type { TaskFunction } from './job-types.js';

const SUBJECTS: Record<string, (d: Record<string, unknown>) => string> = {
  'order.placed': (d) => `Order ${String(d.reference ?? '')} placed`,
  'domain.live': (d) => `${String(d.domain)} is live`,
  'domain.needs_attention': (d) => `${String(d.domain)} needs your attention`,
  'domain.listed': (d) => `${String(d.domain)} was put on a blocklist`,
  'domain.delisted': (d) => `${String(d.domain)} is off a blocklist`,
  'monitor.changed': (d) => `Deliverability of ${String(d.domain)} changed`,
  'invoice.past_due': (d) => `Invoice ${String(d.number ?? '')} is past due`,
  'invoice.paid': (d) => `Receipt: invoice ${String(d.number ?? '')} is paid`,
  'mailbox.disconnected': (d) => `${String(d.email)} is disconnected (${String(d.status)})`,
  'mailbox.reconnected': (d) => `${String(d.email)} is connected again`,
  // A reveal names its domain; an export names its order (its data has no domain: an order spans several).
  'mailbox.credentials_revealed': (d) =>
    typeof d.domain === 'string' ? `Mailbox passwords of ${d.domain} were shown` : `Mailbox passwords of order ${String(d.subscription_id)} were exported`,
  'mailbox.password_reset': (d) => `The password of ${String(d.email)} was reset`,
  'mailbox.suspended': (d) => `Mailboxes on ${String(d.domain)} are suspended`,
  'mailbox.reactivated': (d) => `Mailboxes on ${String(d.domain)} are active again`,
  'dmarc.failures': (d) => `Mail as ${String(d.domain)} is failing DMARC`,
  'tls.failures': (d) => `TLS failures delivering to ${String(d.domain)}`,
  'domain.dmarc_advanced': (d) => `The DMARC policy of ${String(d.domain)} went up a step`,
  'domain.dmarc_reverted': (d) => `The DMARC policy of ${String(d.domain)} went back a step`,
};

/**
 * The portal page a person opens about the event, and what the link is for. E-mails speak of the
 * portal's pages, never of API paths, event ids or field names.
 */
const PAGES: Record<string, (d: Record<string, unknown>) => { readonly path: string; readonly what: string }> = {
  'order.placed': () => ({ path: '/orders', what: 'See the order on the Orders page' }),
  'domain.live': (d) => ({ path: `/domains/${encodeURIComponent(String(d.domain))}/setup`, what: `See the setup of ${String(d.domain)}` }),
  'domain.needs_attention': (d) => ({
    path: `/domains/${encodeURIComponent(String(d.domain))}/setup`,
    what: `Open the setup of ${String(d.domain)} to see what needs doing`,
  }),
  'domain.listed': () => ({ path: '/', what: 'See your domains on the Dashboard' }),
  'domain.delisted': () => ({ path: '/', what: 'See your domains on the Dashboard' }),
  'monitor.changed': () => ({ path: '/', what: 'See your domains on the Dashboard' }),
  'invoice.past_due': () => ({ path: '/billing', what: 'Pay it, or add a card, on the Billing page' }),
  'invoice.paid': () => ({ path: '/billing', what: 'See your invoices on the Billing page' }),
  'dmarc.failures': (d) => ({ path: '/analytics', what: `See who sends mail as ${String(d.domain)} on the Analytics page` }),
  'tls.failures': (d) => ({ path: '/analytics', what: `See the TLS reports for ${String(d.domain)} on the Analytics page` }),
  'domain.dmarc_advanced': (d) => ({ path: '/analytics', what: `See the DMARC ramp of ${String(d.domain)} on the Analytics page` }),
  'domain.dmarc_reverted': (d) => ({ path: '/analytics', what: `See the DMARC ramp of ${String(d.domain)} on the Analytics page` }),
};

const MAILBOX_PAGE = (d: Record<string, unknown>) =>
  typeof d.domain === 'string'
    ? { path: `/domains/${encodeURIComponent(d.domain)}/mailboxes`, what: `See the mailboxes of ${d.domain}` }
    : { path: '/orders', what: 'See your orders and their mailboxes' };

/** A time as people read it: "27 November 2026, 20:55 UTC". */
function readableTime(iso: string): string {
  const at = new Date(iso);
  const day = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${day}, ${time} UTC`;
}

/** The e-mail's text: what happened, what to do, a link to the portal page concerned, and when. */
export function alertEmailText(event: { readonly type: string; readonly created: string; readonly data: Record<string, unknown> }, apiUrl: string): string {
  const subject = (SUBJECTS[event.type] ?? (() => event.type))(event.data);
  const page = (PAGES[event.type] ?? (event.type.startsWith('mailbox.') ? MAILBOX_PAGE : () => ({ path: '/', what: 'Open the portal' })))(event.data);
  const lines = [
    typeof event.data.message === 'string' ? event.data.message : subject + '.',
    typeof event.data.reason === 'string' && event.data.reason ? `What to do: ${event.data.reason}` : null,
    '',
    `${page.what}:`,
    `${apiUrl}/portal${page.path}`,
    '',
    `This happened on ${readableTime(event.created)}. Choose who gets these e-mails in Settings: ${apiUrl}/portal/settings`,
  ];
  return lines.filter((l) => l !== null).join('\n') + '\n';
}

/** One alert e-mail per event and address; the alert_emails row keeps a retry from sending it twice. */
export const sendAlertEmail: TaskFunction = async (payload: { eventId: string; email: string }, env) => {
  const { db, mailer } = env;
  const sent = await findAlertEmail(db, payload.eventId, payload.email);
  if (sent) return;
  const row = await findEvent(db, payload.eventId);
  if (!row) return;
  const event = eventBody(row);
  const subject = (SUBJECTS[event.type] ?? (() => event.type))(event.data);
  const text = alertEmailText(event, env.services.config.apiUrl);
  await mailer.send({ to: payload.email, subject, text, id: `${event.id}.${payload.email}` });
  await insertAlertEmail(db, event.id, payload.email, mailer.transport);
  recordAlertEmail(mailer.transport);
};
