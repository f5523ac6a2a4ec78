import { listDomainsOfOrder } from '../db/domains.js';
import { findPlacedOrder } from '../db/orders.js';
import type { OpenedDatabase } from '../db/open-database.js';
import type { Services } from '../resolvers/context.js';
import { recordEvent } from '../resolvers/events/record-event.js';
import { log } from '../observability/log.js';
import { watchQueueDepth } from '../observability/metrics.js';
import { openGraphileQueue } from './graphile-runner.js';
import { openInProcessQueue } from './in-process-runner.js';
import type { JobsConfig } from '../config/settings.js';
import type { JobEnvironment, QueueState } from './job-types.js';
import type { JobHooks } from '../resolvers/job-hooks.js';
import { createSandboxAdapter } from '../clients/mailboxes/provisioning-adapter.js';
import { createAlertMailer } from '../clients/mail/create-alert-mailer.js';
import { queueDueMonitoring } from './sweep.js';
import { TASKS } from './task-list.js';

export interface RunningJobs {
  readonly hooks: JobHooks;
  readonly config: JobsConfig;
  readonly environment: JobEnvironment;
  state(): Promise<QueueState>;
  stop(): Promise<void>;
}

export interface StartJobsOptions {
  /** settings.jobs (config/settings.ts). */
  readonly config: JobsConfig;
  /** Tests: faults to raise once inside tasks (jobs/job-types.ts faultPoint). */
  readonly faults?: Set<string>;
}

/**
 * Starts this instance's share of the background work. PostgreSQL: graphile-worker, every instance
 * runs workers against the shared queue. Embedded PGlite: the same tasks from a table, in this
 * process only. JOBS=off: nothing runs here, but the API still queues work for other instances.
 */
export async function startJobs(services: Services, database: OpenedDatabase, options: StartJobsOptions): Promise<RunningJobs> {
  const config = options.config;
  const queue =
    database.kind === 'postgres' && services.config.databaseUrl
      ? await openGraphileQueue(services.config.databaseUrl, { leaseMs: config.leaseMs })
      : openInProcessQueue(database.db, config.pollIntervalMs);
  const mailer = createAlertMailer(config.smtpUrl, config.alertFrom, config.outboxDir);
  const environment: JobEnvironment = {
    db: database.db,
    services,
    config,
    // Google's client is loaded only when PROVISIONING=google chose it.
    adapter: config.google
      ? (await import('../clients/mailboxes/google-workspace-adapter.js')).createGoogleAdapter(config.google, config.sandboxBuildDelayMs)
      : createSandboxAdapter(config.sandboxBuildDelayMs, config.sandboxSuspendedMailboxes),
    mailer,
    enqueue: (task, payload, opts) => queue.enqueue(task, payload, opts),
    faults: options.faults ?? new Set(),
  };
  let timer: NodeJS.Timeout | null = null;
  let livenessTimer: NodeJS.Timeout | null = null;
  if (config.enabled) {
    const { deliver_webhook, ...rest } = TASKS;
    await queue.startWorkers(
      [
        { name: 'jobs', tasks: rest, concurrency: config.concurrency },
        { name: 'webhooks', tasks: { deliver_webhook }, concurrency: config.webhookConcurrency },
      ],
      () => environment,
    );
    const queueSweep = () =>
      environment.enqueue('sweep', {}, { key: 'sweep' }).catch((error: Error) => log('warn', 'could not queue the sweep', { reason: error.message }));
    void queueSweep();
    timer = setInterval(() => void queueSweep(), config.sweepIntervalMs);
    timer.unref();
    // The blocklists' test points, probed in the background and shared (jobs/probe-dnsbl-liveness.ts):
    // once at start, so requests soon stop asking them, then every DNSBL_LIVENESS_INTERVAL_MS.
    const queueLivenessProbe = () =>
      environment
        .enqueue('probe_dnsbl_liveness', {}, { key: 'probe_dnsbl_liveness' })
        .catch((error: Error) => log('warn', 'could not queue the blocklist liveness probe', { reason: error.message }));
    void queueLivenessProbe();
    livenessTimer = setInterval(() => void queueLivenessProbe(), services.dnsblLiveness.intervalMs);
    livenessTimer.unref();
  }
  watchQueueDepth(() => queue.state());
  const safely = (what: string, work: () => Promise<unknown>) =>
    work().then(
      () => undefined,
      (error: Error) => {
        // The sweep picks up what a failed hook missed; the caller's change stands.
        log('warn', `could not queue the work after ${what}; the next sweep will`, { reason: error.message });
      },
    );
  const hooks: JobHooks = {
    allowPrivateEndpoints: config.webhookAllowPrivate,
    orderPlaced: (orderId) =>
      safely('a placement', async () => {
        const order = await findPlacedOrder(database.db, orderId);
        const domains = await listDomainsOfOrder(database.db, orderId);
        const runAt = new Date(Date.now() + config.sandboxBuildDelayMs);
        for (const d of domains) await environment.enqueue('build_domain', { domainId: d.id }, { key: `build:${d.id}`, runAt });
        const eventId = await recordEvent(
          database.db,
          order.account_id,
          'order.placed',
          {
            order_id: order.id,
            reference: order.reference,
            subscription_id: order.subscription_id,
            quantity: order.quantity,
            domains: domains.map((d) => d.domain),
            amount: order.first_invoice,
            currency: order.currency,
            // The order e-mail (the receipt) reads this: what was charged, for which domains, and where to see it.
            message: orderPlacedMessage(
              order,
              domains.map((d) => d.domain),
              services.config.apiUrl,
            ),
          },
          `evt_order_placed_${order.id}`,
        );
        if (eventId) await environment.enqueue('fan_out_event', { eventId }, { key: `fan_out:${eventId}` });
      }),
    eventRecorded: (eventId) =>
      safely('an event', async () => {
        await environment.enqueue('fan_out_event', { eventId }, { key: `fan_out:${eventId}` });
      }),
    deliveryQueued: (deliveryId) => environment.enqueue('deliver_webhook', { deliveryId }, { key: `deliver:${deliveryId}:asked:${Date.now()}` }),
    orderCancelled: (orderId) =>
      safely('a cancellation', async () => {
        await environment.enqueue('suspend_mailboxes', { orderId }, { key: `suspend_mailboxes:${orderId}` });
      }),
    orderReinstated: (orderId) =>
      safely('a reinstatement', async () => {
        await environment.enqueue('reactivate_mailboxes', { orderId }, { key: `reactivate_mailboxes:${orderId}` });
      }),
    monitoringSwitched: (orderId, on) =>
      safely('the monitoring switch', async () => {
        if (on) await queueDueMonitoring(environment, orderId);
      }),
  };
  return {
    hooks,
    config,
    environment,
    state: () => queue.state(),
    async stop() {
      if (timer) clearInterval(timer);
      if (livenessTimer) clearInterval(livenessTimer);
      watchQueueDepth(null);
      await queue.stop();
      mailer.close();
    },
  };
}

/** The order e-mail's words: the amount charged, the domains, and a link to the invoice on billing. */
function orderPlacedMessage(order: { reference: string; first_invoice: number | null; currency: string }, domains: readonly string[], apiUrl: string): string {
  const amount = order.first_invoice === null ? null : `${(order.first_invoice / 100).toFixed(2)} ${order.currency.toUpperCase()}`;
  return [
    `Order ${order.reference} is placed${amount ? `: ${amount} was charged to your card` : ''}.`,
    `Domains (${domains.length}): ${domains.join(', ')}.`,
    `Invoice and receipt: ${apiUrl}/portal/billing`,
    `Build progress: ${apiUrl}/portal/`,
  ].join('\n');
}
