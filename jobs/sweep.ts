import { sql } from 'kysely';
import type { JobEnvironment, TaskFunction } from './job-types.js';
import { monitorSlot } from './monitor-domain.js';
import { recordEvent } from '../resolvers/events/record-event.js';
import { queueDueSetupChecks } from './check-domain-setup.js';
import { queueDueMailboxChecks } from './check-mailboxes.js';
import { deleteReportsEndedBefore } from '../db/reports.js';

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
  const { db, config } = env;
  const now = Date.now();
  // Orders placed through a processor only: seeded or imported orders are not ours to build.
  const stuck = await db
    .selectFrom('domains')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .select('domains.id')
    .where('orders.processor_subscription_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('domains.build_state', '=', 'queued'), eb('domains.created_at', '<', new Date(now - config.sandboxBuildDelayMs - STUCK_AFTER_MS))]),
        eb.and([eb('domains.build_state', '=', 'building'), eb('domains.created_at', '<', new Date(now - BUILDING_STUCK_AFTER_MS))]),
      ]),
    )
    .limit(500)
    .execute();
  for (const d of stuck) await env.enqueue('build_domain', { domainId: d.id }, { key: `build:${d.id}` });
  const events = await db
    .selectFrom('events')
    .select('id')
    .where('fanned_out_at', 'is', null)
    .where('created_at', '<', new Date(now - 30_000))
    .limit(500)
    .execute();
  for (const e of events) await env.enqueue('fan_out_event', { eventId: e.id }, { key: `fan_out:${e.id}` });
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'attempts'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<', new Date(now - 60_000))
    .limit(500)
    .execute();
  for (const d of deliveries) await env.enqueue('deliver_webhook', { deliveryId: d.id }, { key: `deliver:${d.id}:${d.attempts + 1}` });
  await recordPastDueInvoices(env);
  // Retention (REPORTS_RETENTION_DAYS): a batch of expired DMARC and TLS-RPT reports per sweep, their rows with them.
  await deleteReportsEndedBefore(db, new Date(now - config.reportsRetentionDays * 86_400_000));
};

/**
 * An invoice open after its due date (what billing shows as past due) yields one invoice.past_due
 * event: its id is made from the invoice's, so every sweep after the first records nothing new.
 * Invoices that fell due more than 30 days ago are history, not news.
 */
async function recordPastDueInvoices(env: JobEnvironment): Promise<void> {
  const now = Date.now();
  const invoices = await env.db
    .selectFrom('invoices')
    .leftJoin('events', (join) => join.on('events.id', '=', sql<string>`'evt_invoice_past_due_' || invoices.id`))
    .select([
      'invoices.id',
      'invoices.account_id',
      'invoices.number',
      'invoices.order_id',
      'invoices.amount_due',
      'invoices.amount_paid',
      'invoices.currency',
      'invoices.due_at',
    ])
    .where('invoices.status', '=', 'open')
    .where('invoices.due_at', '<', new Date(now))
    .where('invoices.due_at', '>', new Date(now - 30 * 86_400_000))
    .where('events.id', 'is', null)
    .limit(500)
    .execute();
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
  let query = db
    .selectFrom('domains')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .select('domains.id')
    .where('orders.monitor_deliverability', '=', true)
    // Only built domains have mail to watch; seeded or imported orders (no processor subscription) are left alone.
    .where('domains.build_state', 'in', ['live', 'needs_attention'])
    .where('orders.processor_subscription_id', 'is not', null)
    .where((eb) =>
      eb.or([eb('domains.last_monitored_at', 'is', null), eb('domains.last_monitored_at', '<=', new Date(now.getTime() - config.monitorIntervalMs))]),
    );
  if (orderId !== undefined) query = query.where('orders.id', '=', orderId);
  else query = query.where((eb) => eb.or([eb('domains.monitor_queued_slot', 'is', null), eb('domains.monitor_queued_slot', '<>', slot)]));
  const due = await query.orderBy(sql`domains.last_monitored_at nulls first`).limit(5000).execute();
  for (const d of due) await env.enqueue('monitor_domain', { domainId: d.id, slot }, { key: `monitor:${d.id}:${slot}` });
  if (due.length)
    await db
      .updateTable('domains')
      .set({ monitor_queued_slot: slot })
      .where(
        'id',
        'in',
        due.map((d) => d.id),
      )
      .execute();
  return due.length;
}
