import { listDomainsDueMonitoring, listStuckBuilds, markMonitoringQueued } from '../db/domains.js';
import { listEventsWaitingFanOut } from '../db/events.js';
import { listPastDueInvoicesWithoutEvent } from '../db/invoices.js';
import { listOverdueWebhookDeliveries } from '../db/webhook-deliveries.js';
import type { JobEnvironment, TaskFunction } from './job-types.js';
import { monitorSlot } from './monitor-domain.js';
import { recordEvent } from '../resolvers/events/record-event.js';
import { queueDueSetupChecks } from './check-domain-setup.js';
import { queueDueMailboxChecks } from './check-mailboxes.js';
import { queueDueSuspensions } from './suspend-mailboxes.js';
import { queueDueReactivations } from './reactivate-mailboxes.js';
import { queueDueCertificates } from './issue-forwarding-certificate.js';
import { deleteReportsEndedBefore } from '../db/reports.js';
import { takeAutoRampAccountsDue } from '../db/dmarc-ramp-steps.js';
import { deleteExpiredOAuthRecords, deleteUnusedOAuthClients } from '../db/oauth-records.js';

/** A registered OAuth client that no grant, session, code or token names is deleted this long after registering. */
const UNUSED_CLIENT_KEPT_MS = 86_400_000;
/** A domain queued this long after its build should have started is picked up again. */
const STUCK_AFTER_MS = 60_000;
/** A build cut off mid-way (its process died) is resumed after this long in `building`. */
const BUILDING_STUCK_AFTER_MS = 10 * 60_000;

/**
 * The recurring job: queues the monitoring runs that are due, and anything the fast path missed (a
 * process that died between recording and queueing). Each instance queues it every
 * JOBS_SWEEP_INTERVAL_MS under one job key, so the instances share one sweep at a time.
 */
export const sweep: TaskFunction = async (_payload, env) => {
  await queueDueMonitoring(env);
  await queueDueSetupChecks(env);
  await queueDueMailboxChecks(env);
  await queueDueSuspensions(env);
  await queueDueReactivations(env);
  await queueDueCertificates(env);
  const { db, config } = env;
  const now = Date.now();
  // Orders placed through a processor only: seeded or imported orders are not ours to build.
  const stuck = await listStuckBuilds(db, now, config.sandboxBuildDelayMs + STUCK_AFTER_MS, BUILDING_STUCK_AFTER_MS);
  for (const d of stuck) await env.enqueue('build_domain', { domainId: d.id }, { key: `build:${d.id}` });
  const events = await listEventsWaitingFanOut(db, new Date(now - 30_000));
  for (const e of events) await env.enqueue('fan_out_event', { eventId: e.id }, { key: `fan_out:${e.id}` });
  const deliveries = await listOverdueWebhookDeliveries(db, new Date(now - 60_000));
  for (const d of deliveries) await env.enqueue('deliver_webhook', { deliveryId: d.id }, { key: `deliver:${d.id}:${d.attempts + 1}` });
  await recordPastDueInvoices(env);
  // The automatic DMARC ramp, once a day per account that turned it on.
  for (const account of await takeAutoRampAccountsDue(db, new Date(now).toISOString().slice(0, 10)))
    await env.enqueue('dmarc_ramp', { accountId: account.id }, { key: `dmarc_ramp:${account.id}` });
  // Retention (REPORTS_RETENTION_DAYS): a batch of expired DMARC and TLS-RPT reports per sweep, their rows with them.
  await deleteReportsEndedBefore(db, new Date(now - config.reportsRetentionDays * 86_400_000));
  // The MCP sign-in's expired codes, tokens, interactions and sessions (their finds already ignore them).
  await deleteExpiredOAuthRecords(db, new Date(now));
  // Clients registered a day ago or more that no sign-in uses (registration is keyless: 30 an hour per address).
  await deleteUnusedOAuthClients(db, new Date(now - UNUSED_CLIENT_KEPT_MS));
};

/**
 * An invoice open after its due date (what billing shows as past due) yields one invoice.past_due
 * event: its id is made from the invoice's, so every sweep after the first records nothing new.
 * Invoices that fell due more than 30 days ago are history, not news.
 */
async function recordPastDueInvoices(env: JobEnvironment): Promise<void> {
  const now = Date.now();
  const invoices = await listPastDueInvoicesWithoutEvent(env.db, now);
  for (const invoice of invoices) {
    const eventId = await recordEvent(
      env.db,
      invoice.account_id,
      'invoice.past_due',
      {
        invoice_id: invoice.id,
        number: invoice.number,
        order_id: invoice.order_id,
        amount_due: invoice.amount_due - invoice.amount_paid,
        currency: invoice.currency,
        due_at: new Date(invoice.due_at).toISOString(),
        message: `Invoice ${invoice.number} is past due. Replace the card on file on the portal's Billing page, or pay it there with "Pay now".`,
      },
      `evt_invoice_past_due_${invoice.id}`,
    );
    if (eventId) await env.enqueue('fan_out_event', { eventId }, { key: `fan_out:${eventId}` });
  }
}

/**
 * Domains of orders with the deliverability switch on whose last run is older than the interval.
 * The sweep queues each once per period (monitor_queued_slot), so a thousand waiting runs are not
 * queued again every sweep; for one order (the switch turned on, a domain built) they are queued
 * whatever was queued before, since a run queued while the switch was off did nothing.
 */
export async function queueDueMonitoring(env: JobEnvironment, orderId?: number): Promise<number> {
  const { db, config } = env;
  const now = new Date();
  const slot = monitorSlot(now, config.monitorIntervalMs);
  const due = await listDomainsDueMonitoring(db, now, config.monitorIntervalMs, slot, orderId);
  for (const d of due) await env.enqueue('monitor_domain', { domainId: d.id, slot }, { key: `monitor:${d.id}:${slot}` });
  if (due.length)
    await markMonitoringQueued(
      db,
      due.map((d) => d.id),
      slot,
    );
  return due.length;
}
