import { sql } from 'kysely';
import type { JobEnvironment, TaskFunction } from './job-types.js';
import { monitorSlot } from './monitor-domain.js';

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
  const { db, config } = env;
  const now = Date.now();
  // Orders placed through a processor only: seeded or imported orders are not ours to build.
  const stuck = await db.selectFrom('domains').innerJoin('orders', 'orders.id', 'domains.order_id').select('domains.id')
    .where('orders.processor_subscription_id', 'is not', null)
    .where((eb) => eb.or([
      eb.and([eb('domains.build_state', '=', 'queued'), eb('domains.created_at', '<', new Date(now - config.sandboxBuildDelayMs - STUCK_AFTER_MS))]),
      eb.and([eb('domains.build_state', '=', 'building'), eb('domains.created_at', '<', new Date(now - BUILDING_STUCK_AFTER_MS))]),
    ])).limit(500).execute();
  for (const d of stuck) await env.enqueue('build_domain', { domainId: d.id }, { key: `build:${d.id}` });
  const events = await db.selectFrom('events').select('id').where('fanned_out_at', 'is', null).where('created_at', '<', new Date(now - 30_000)).limit(500).execute();
  for (const e of events) await env.enqueue('fan_out_event', { eventId: e.id }, { key: `fan_out:${e.id}` });
  const deliveries = await db.selectFrom('webhook_deliveries').select(['id', 'attempts']).where('status', '=', 'pending')
    .where('next_attempt_at', '<', new Date(now - 60_000)).limit(500).execute();
  for (const d of deliveries) await env.enqueue('deliver_webhook', { deliveryId: d.id }, { key: `deliver:${d.id}:${d.attempts + 1}` });
};

/** Domains of orders with the deliverability switch on whose last run is older than the interval. */
export async function queueDueMonitoring(env: JobEnvironment, orderId?: number): Promise<number> {
  const { db, config } = env;
  const now = new Date();
  let query = db.selectFrom('domains').innerJoin('orders', 'orders.id', 'domains.order_id').select('domains.id')
    .where('orders.monitor_deliverability', '=', true)
    // Only built domains have mail to watch; seeded or imported orders (no processor subscription) are left alone.
    .where('domains.build_state', 'in', ['live', 'needs_attention']).where('orders.processor_subscription_id', 'is not', null)
    .where((eb) => eb.or([eb('domains.last_monitored_at', 'is', null), eb('domains.last_monitored_at', '<=', new Date(now.getTime() - config.monitorIntervalMs))]));
  if (orderId !== undefined) query = query.where('orders.id', '=', orderId);
  const due = await query.orderBy(sql`domains.last_monitored_at nulls first`).limit(5000).execute();
  const slot = monitorSlot(now, config.monitorIntervalMs);
  for (const d of due) await env.enqueue('monitor_domain', { domainId: d.id, slot }, { key: `monitor:${d.id}:${slot}` });
  return due.length;
}
