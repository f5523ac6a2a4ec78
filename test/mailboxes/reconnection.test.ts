import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';
import { startWebhookReceiver, waitFor } from '../jobs/webhook-receiver.js';
import { waitForJobsFinished } from '../jobs/finished-jobs.js';
import type { SandboxAdapter } from '../../clients/mailboxes/provisioning-adapter.js';

/**
 * The reconnection monitor with the jobs on: the sandbox provider is told (SANDBOX_SUSPENDED_MAILBOXES)
 * to report one mailbox suspended once made. On the monitoring schedule the mailbox leaves active:
 * mailbox.disconnected is recorded, delivered to the webhook endpoint and mailed as an alert, the
 * disconnection is recorded; when the provider reports it active again, mailbox.reconnected closes it.
 * An order with the reconnection switch off is not watched.
 */
const [watched, unwatched] = [FREE_DOMAINS[5]!, FREE_DOMAINS[6]!];
const suspended = `sam@${watched}`;
let h: OrderingHarness;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let outbox: string;
const sandbox = () => h.service.jobs.environment.adapter as SandboxAdapter;
const statusOf = async (domain: string) => {
  const response = await h.service.api(`/v1/portal/domains/${domain}/mailboxes`);
  expect(response.status).toBe(200);
  return Object.fromEntries(((await response.json()) as any).mailboxes.map((m: any) => [m.email, m.status]));
};

beforeAll(async () => {
  outbox = mkdtempSync(join(tmpdir(), 'reconnection-outbox-'));
  receiver = await startWebhookReceiver();
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    env: {
      JOBS: 'on',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '300',
      MONITOR_INTERVAL_MS: '1000',
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      SANDBOX_SUSPENDED_MAILBOXES: `${suspended.toUpperCase()},sam@${unwatched}`,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
      ALERT_OUTBOX_DIR: outbox,
    },
  });
  const recipients = await postJson(h.service, '/v1/alerts/recipients', { emails: ['ops@example.com'] }, { method: 'PUT' });
  if (recipients.status !== 200) throw new Error(`alert recipients refused: ${JSON.stringify(recipients.body)}`);
  const endpoint = await postJson(h.service, '/v1/webhooks', { url: receiver.url, events: ['mailbox.disconnected', 'mailbox.reconnected'] });
  if (endpoint.status !== 200) throw new Error(`webhook endpoint refused: ${JSON.stringify(endpoint.body)}`);
  await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
  for (const [domain, key] of [
    [watched, 'reconnection-0001'],
    [unwatched, 'reconnection-0002'],
  ] as const) {
    const placed = await postJson(h.service, '/v1/orders', orderBody([domain], 2), { headers: { 'idempotency-key': key } });
    if (placed.status !== 200) throw new Error(`the order was refused: ${JSON.stringify(placed.body)}`);
    if (domain === unwatched) {
      const off = await postJson(h.service, `/v1/portal/orders/${placed.body.subscription_id}/monitors`, { reconnection: false }, { method: 'PUT' });
      if (off.status !== 200) throw new Error(`the switch was refused: ${JSON.stringify(off.body)}`);
    }
  }
}, 90_000);
afterAll(async () => {
  await h?.close();
  await receiver?.close();
  rmSync(outbox, { recursive: true, force: true });
});

describe('reconnection monitor', () => {
  it('a mailbox the provider suspends raises mailbox.disconnected: event, webhook, alert e-mail, and the disconnection is recorded', async () => {
    const delivery = await waitFor(
      'the mailbox.disconnected webhook',
      async () => receiver.received.find((r) => JSON.parse(r.body).type === 'mailbox.disconnected'),
      30_000,
    );
    const event = JSON.parse(delivery.body);
    expect(event.data).toMatchObject({
      domain: watched,
      email: suspended,
      status: 'suspended',
      previous_status: 'active',
      disconnection_id: expect.any(Number),
    });
    expect(delivery.headers['webhook-signature']).toBeDefined();
    expect(await statusOf(watched)).toEqual({ [`alex@${watched}`]: 'active', [suspended]: 'suspended' });
    const record = await h.service.services.db
      .selectFrom('mailbox_disconnections')
      .innerJoin('mailboxes', 'mailboxes.id', 'mailbox_disconnections.mailbox_id')
      .select(['mailbox_disconnections.id', 'mailbox_disconnections.status', 'mailbox_disconnections.reconnected_at', 'mailboxes.local_part'])
      .execute();
    expect(record).toEqual([{ id: event.data.disconnection_id, status: 'suspended', reconnected_at: null, local_part: 'sam' }]);
    const mail = await waitFor('the alert e-mail', async () =>
      readdirSync(outbox).find((f) => readFileSync(join(outbox, f), 'utf8').includes(`Subject: ${suspended} is disconnected`)),
    );
    const text = readFileSync(join(outbox, mail), 'utf8');
    expect(text).toMatch(/To: ops@example\.com/);
    expect(text).toContain(`Subject: ${suspended} is disconnected (suspended)`);
    // People's words: a link to the domain's mailboxes in the portal, no event type or id.
    expect(text).toMatch(/\/portal\/domains\/[^/\s]+\/mailboxes/);
    expect(text).not.toContain('mailbox.disconnected');
  });

  it('an order with the reconnection switch off is not watched: its suspended mailbox stays as recorded', async () => {
    // Several monitoring periods (MONITOR_INTERVAL_MS, 1 s) pass: the watched order's mailboxes are
    // checked three more times, and the unwatched one's would have been due as often.
    await waitForJobsFinished('check_mailboxes', 3);
    expect(await statusOf(unwatched)).toEqual({ [`alex@${unwatched}`]: 'active', [`sam@${unwatched}`]: 'active' });
    const events = await h.service.services.db.selectFrom('events').select('data').where('type', '=', 'mailbox.disconnected').execute();
    expect(events.map((e) => JSON.parse(e.data).email)).toEqual([suspended]);
  });

  it('once the provider reports it active again, mailbox.reconnected closes the record; nothing is told twice', async () => {
    sandbox().suspended.delete(suspended);
    const delivery = await waitFor(
      'the mailbox.reconnected webhook',
      async () => receiver.received.find((r) => JSON.parse(r.body).type === 'mailbox.reconnected'),
      30_000,
    );
    expect(JSON.parse(delivery.body).data).toMatchObject({ email: suspended, status: 'active', previous_status: 'suspended' });
    expect(await statusOf(watched)).toEqual({ [`alex@${watched}`]: 'active', [suspended]: 'active' });
    const record = await h.service.services.db.selectFrom('mailbox_disconnections').select('reconnected_at').executeTakeFirstOrThrow();
    expect(record.reconnected_at).toBeInstanceOf(Date);
    // Two more checks of the watched mailboxes, which would tell it again if they were to.
    await waitForJobsFinished('check_mailboxes', 2);
    const types = (await h.service.services.db.selectFrom('events').select('type').where('type', 'like', 'mailbox.%').execute()).map((e) => e.type).sort();
    expect(types).toEqual(['mailbox.disconnected', 'mailbox.reconnected']);
  });
});
