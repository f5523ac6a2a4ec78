import { recordEvent } from '../resolvers/events/record-event.js';
import {
  closeMailboxDisconnections,
  findDomainsDueMailboxCheck,
  findMailboxesOfDomain,
  markMailboxesChecked,
  moveMailboxStatus,
  openMailboxDisconnection,
} from '../db/mailboxes.js';
import { findDomainToCheckMailboxes } from '../db/domains.js';
import type { JobEnvironment, TaskFunction } from './job-types.js';

/**
 * The reconnection monitor (the order's monitor_reconnection switch): on the monitoring schedule
 * (MONITOR_INTERVAL_MS, queued by the sweep) each built domain's mailboxes are looked up at the
 * provider. A mailbox that leaves `active` is recorded (mailbox_disconnections) and raises
 * mailbox.disconnected (event, webhooks, alert e-mails); one that comes back closes that record and
 * raises mailbox.reconnected. Each move is a conditional update with its event in one transaction,
 * and event ids come from the record's id, so a retried or doubled run tells nothing twice. An
 * address the provider does not speak for keeps its recorded status.
 */
export const checkMailboxes: TaskFunction = async (payload: { domainId: number }, env) => {
  const { db } = env;
  const domain = await findDomainToCheckMailboxes(db, payload.domainId);
  if (!domain || !domain.monitor_reconnection) return;
  const mailboxes = await findMailboxesOfDomain(db, domain.id);
  const emailOf = (m: { local_part: string }) => `${m.local_part}@${domain.domain}`;
  const reported = await env.adapter.mailboxStatuses(domain.domain, mailboxes.map(emailOf));
  const now = new Date();
  const eventIds: string[] = [];
  for (const m of mailboxes) {
    const email = emailOf(m);
    const status = reported.get(email);
    if (status === undefined || status === m.status) continue;
    const eventId = await db.transaction().execute(async (trx) => {
      if (!(await moveMailboxStatus(trx, m.id, m.status, status, now))) return null;
      const facts = { domain: domain.domain, order_id: domain.order_id, email, status, previous_status: m.status };
      if (m.status === 'active') {
        const id = await openMailboxDisconnection(trx, m.id, status, now);
        return recordEvent(
          trx,
          domain.account_id,
          'mailbox.disconnected',
          {
            ...facts,
            disconnection_id: id,
            message: `${email} is ${status} at the mail provider, so your sending tool can no longer use it. We are looking into it; its reconnection will be reported as mailbox.reconnected.`,
          },
          `evt_mailbox_disconnected_${id}`,
        );
      }
      if (status !== 'active') return null;
      const closed = await closeMailboxDisconnections(trx, m.id, now);
      if (closed.length === 0) return null;
      return recordEvent(
        trx,
        domain.account_id,
        'mailbox.reconnected',
        {
          ...facts,
          disconnection_id: closed[0],
          message: `${email} is active again at the mail provider; reconnect it in your sending tool if it does not resume by itself.`,
        },
        `evt_mailbox_reconnected_${closed[0]}`,
      );
    });
    if (eventId) eventIds.push(eventId);
  }
  await markMailboxesChecked(db, [domain.id], now);
  for (const eventId of eventIds) await env.enqueue('fan_out_event', { eventId }, { key: `fan_out:${eventId}` });
};

/** The sweep's part: domains whose mailboxes were not looked at within MONITOR_INTERVAL_MS, each queued once per period. */
export async function queueDueMailboxChecks(env: JobEnvironment): Promise<number> {
  const now = Date.now();
  const due = await findDomainsDueMailboxCheck(env.db, new Date(now - env.config.monitorIntervalMs), 5000);
  const slot = Math.floor(now / env.config.monitorIntervalMs);
  for (const d of due) await env.enqueue('check_mailboxes', { domainId: d.id }, { key: `mailboxes:${d.id}:${slot}` });
  return due.length;
}
