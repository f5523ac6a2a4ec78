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
  'dmarc.failures': (d) => `Mail as ${String(d.domain)} is failing DMARC`,
  'tls.failures': (d) => `TLS failures delivering to ${String(d.domain)}`,
};

/** One alert e-mail per event and address; the alert_emails row keeps a retry from sending it twice. */
export const sendAlertEmail: TaskFunction = async (payload: { eventId: string; email: string }, env) => {
  const { db, mailer } = env;
  const sent = await findAlertEmail(db, payload.eventId, payload.email);
  if (sent) return;
  const row = await findEvent(db, payload.eventId);
  if (!row) return;
  const event = eventBody(row);
  const subject = (SUBJECTS[event.type] ?? (() => event.type))(event.data);
  const lines = [
    typeof event.data.message === 'string' ? event.data.message : subject + '.',
    typeof event.data.reason === 'string' && event.data.reason ? `What to do: ${event.data.reason}` : '',
    '',
    `Event ${event.id} (${event.type}) at ${event.created}.`,
  ].filter((l, i) => l !== '' || i > 1);
  await mailer.send({ to: payload.email, subject, text: lines.join('\n') + '\n', id: `${event.id}.${payload.email}` });
  await insertAlertEmail(db, event.id, payload.email, mailer.transport);
  recordAlertEmail(mailer.transport);
};
