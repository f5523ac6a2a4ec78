import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasGraphileJobs } from '../../db/job-queue.js';
import { monitorSlot } from '../../jobs/monitor-domain.js';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';
import { verifySignature } from '../../resolvers/webhooks/sign-payload.js';
import type { ZoneRecord } from '../support/dns-server.js';
import { FAST_SETUP_RECHECK, jobsZone, publishedSetup, startJobsRdapServer } from './jobs-zone.js';
import { waitForJobsFinished } from './finished-jobs.js';
import { startWebhookReceiver, waitFor } from './webhook-receiver.js';

/**
 * The flows behind an order, in one process: on embedded PGlite through the in-process queue, and
 * on PostgreSQL (DATABASE_URL) through graphile-worker. Builds, monitoring, a listing between two
 * runs turned into one signed domain.listed delivery retried after a 500.
 */
let h: OrderingHarness;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let rdap: Awaited<ReturnType<typeof startJobsRdapServer>>;
const [first, second] = [FREE_DOMAINS[30]!, FREE_DOMAINS[31]!];
const faults = new Set(['monitor_after_record']);
let secret = '';
let webhookId = 0;
/** The setup records the test publishes for both domains once they are built, as their owner would. */
let published: ZoneRecord[] = [];

beforeAll(async () => {
  rdap = await startJobsRdapServer();
  // The first delivery of each domain.listed event gets a 500, as a receiver that is down would answer.
  receiver = await startWebhookReceiver((body, earlier) => {
    const { id, type } = JSON.parse(body) as { id: string; type: string };
    return type === 'domain.listed' && !earlier.some((r) => JSON.parse(r.body).id === id) ? 500 : 200;
  });
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    jobFaults: faults,
    env: {
      JOBS: 'on',
      // The local DNS server answers late while this process is busy: the fixture's 400 ms refused the
      // order at load 20 (domain_not_verified: the TXT lookup timed out). No lookup here is meant to time out.
      DNS_TIMEOUT_MS: '3000',
      DNS_TRIES: '2',
      RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl,
      SANDBOX_BUILD_DELAY_MS: '100',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '300',
      MONITOR_INTERVAL_MS: '4000',
      // The service starts on the ordering zone, which has no blocklist test points, so the liveness
      // probe at start finds the lists dead; probing every second sees them alive once the jobs zone
      // (with the test points) is served, as a list that comes back would be seen.
      DNSBL_LIVENESS_INTERVAL_MS: '1000',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
      ALERT_OUTBOX_DIR: `/tmp/outbox-${process.pid}`,
      ...FAST_SETUP_RECHECK,
    },
  });
  h.dns.setRecords(jobsZone([first]));
}, 30_000);
afterAll(async () => {
  await h?.close();
  await receiver?.close();
  await rdap?.close();
});

const db = () => h.service.services.db;

/** Monitoring runs of a domain queued or running (graphile-worker's table on PostgreSQL, else the in-process one). */
async function monitorJobsQueued(domainId: number): Promise<number> {
  const prefix = `monitor:${domainId}:%`;
  if (await hasGraphileJobs(db())) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where key like ${prefix}`.execute(db());
    return rows[0]!.n;
  }
  const row = await db().selectFrom('job_queue').select(sql<number>`count(*)::int`.as('n')).where('job_key', 'like', prefix).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('an order placed, built, watched and listed', () => {
  it("a placed order's domains go queued → waiting_for_dns with the DNS problems shown on the domain, then live once each when the records are published", async () => {
    const endpoint = await postJson(h.service, '/v1/webhooks', { url: receiver.url, events: ['*'] });
    expect(endpoint.status).toBe(200);
    secret = endpoint.body.secret;
    webhookId = endpoint.body.webhook_id;
    await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
    const placed = await postJson(h.service, '/v1/orders', orderBody([first, second], 1), { headers: { 'idempotency-key': 'jobs-flow-0001' } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const rows = await waitFor('both domains built and waiting for their DNS', async () => {
      const r = await db().selectFrom('domains').selectAll().where('domain', 'in', [first, second]).execute();
      return r.length === 2 && r.every((d) => d.build_state === 'waiting_for_dns' && d.setup_checked_at !== null) ? r : null;
    });
    const problems = Object.fromEntries(rows.map((d) => [d.domain, JSON.parse(d.build_problems ?? '[]') as { code: string; message: string }[]]));
    // The first domain publishes MX (verified), an SPF without Google, its own DMARC and the web
    // address; DKIM is missing. The second publishes nothing.
    expect(problems[first]!.map((p) => p.code)).toEqual(['setup_spf_wrong', 'setup_dkim_missing', 'setup_dmarc_wrong']);
    expect(problems[second]!.map((p) => p.code)).toEqual([
      'setup_mx_missing',
      'setup_spf_missing',
      'setup_dkim_missing',
      'setup_dmarc_missing',
      'setup_forwarding_missing',
    ]);
    expect(problems[second]!.every((p) => p.message.length > 30)).toBe(true);
    // The dashboard shows them on the domain, in the customer's words.
    const dashboard = await (await h.service.api('/v1/portal/dashboard')).json();
    const shown = dashboard.orders.flatMap((o: { domains: unknown[] }) => o.domains).find((d: { domain: string }) => d.domain === first);
    expect(shown).toMatchObject({
      build_state: 'waiting_for_dns',
      build_reason: expect.stringContaining('DKIM missing'),
      build_problems: expect.arrayContaining([{ code: 'setup_dkim_missing', message: expect.stringContaining(`google._domainkey.${first}`) }]),
    });
    expect(await db().selectFrom('events').select('id').where('type', '=', 'domain.live').execute()).toEqual([]);

    // The owner publishes what each setup asks for; the jobs' next check finds it and the domains go live.
    for (const domain of [first, second]) {
      const setup = await (await h.service.api(`/v1/domains/${domain}/setup`)).json();
      published.push(...publishedSetup(setup.records));
    }
    // The setup's records take the place of the first domain's own (its SPF merged, its DMARC replaced).
    h.dns.setRecords([...jobsZone([]), ...published]);
    const liveRows = await waitFor('both domains live', async () => {
      const r = await db().selectFrom('domains').selectAll().where('domain', 'in', [first, second]).execute();
      return r.length === 2 && r.every((d) => d.build_state === 'live') ? r : null;
    });
    for (const row of liveRows) expect(JSON.parse(row.build_problems ?? '[]')).toEqual([]);
    const liveDashboard = await (await h.service.api('/v1/portal/dashboard')).json();
    const shownLive = liveDashboard.orders.flatMap((o: { domains: unknown[] }) => o.domains).find((d: { domain: string }) => d.domain === first);
    expect(shownLive).toMatchObject({ build_state: 'live', build_reason: null, build_problems: [] });
    const live = await db().selectFrom('events').select(['type', 'data']).where('type', '=', 'domain.live').execute();
    const liveDomains = live
      .map((e) => JSON.parse(e.data).domain)
      .filter((d: string) => d === first || d === second)
      .sort();
    expect(liveDomains).toEqual([first, second].sort());
    expect(await db().selectFrom('events').select('id').where('id', '=', `evt_order_placed_${placed.body.order_id}`).executeTakeFirst()).toBeTruthy();
  }, 30_000);

  it("monitoring on: the domain's analytics change from null to figures, and a run cut off after recording is retried without recording twice", async () => {
    const analytics = await waitFor('watched analytics', async () => {
      const body = (await (await h.service.api('/v1/portal/analytics?period=1d')).json()) as {
        domains: { domain: string; watched: boolean; sent: number | null }[];
      };
      const mine = body.domains.find((d) => d.domain === first);
      return mine?.watched ? mine : null;
    });
    expect(analytics.sent).toBe(0);
    // The injected fault stopped the first run after it committed; its retry found the run recorded.
    await waitFor('the fault to be used', async () => !faults.has('monitor_after_record'));
    const domain = await db().selectFrom('domains').select('id').where('domain', '=', first).executeTakeFirstOrThrow();
    const days = await db().selectFrom('domain_analytics').select('day').where('domain_id', '=', domain.id).execute();
    expect(days).toHaveLength(1);
  }, 30_000);

  it('a listing between two runs yields one domain.listed event, delivered signed and retried after a 500', async () => {
    h.dns.setRecords([...jobsZone([], [first]), ...published]);
    const deliveries = await waitFor(
      'a successful domain.listed delivery',
      async () => {
        const listed = receiver.received.filter((r) => JSON.parse(r.body).type === 'domain.listed');
        return listed.some((r) => r.status === 200) ? listed : null;
      },
      30_000,
    );
    const ids = new Set(deliveries.map((r) => JSON.parse(r.body).id));
    expect(ids.size).toBe(1);
    for (const r of deliveries) {
      expect(verifySignature(secret, r.body, String(r.headers['webhook-signature']), Math.floor(Date.now() / 1000))).toBe(true);
      expect(r.headers['webhook-id']).toBe([...ids][0]);
    }
    const events = await db().selectFrom('events').select(['id', 'data']).where('type', '=', 'domain.listed').execute();
    expect(events.filter((e) => JSON.parse(e.data).domain === first)).toHaveLength(1);
    await waitFor(
      'the delivery to be recorded',
      async () =>
        (
          await db()
            .selectFrom('webhook_deliveries')
            .select('status')
            .where('event_id', '=', [...ids][0]!)
            .executeTakeFirst()
        )?.status === 'delivered',
    );
    const attempts = await db()
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.attempt', 'a.status_code', 'd.status'])
      .where('d.event_id', '=', [...ids][0]!)
      .orderBy('a.attempt')
      .execute();
    expect(attempts.map((a) => a.status_code)).toEqual([500, 200]);
    expect(attempts[0]!.status).toBe('delivered');
    const listedByApi = await postJson(h.service, `/v1/webhooks/${webhookId}/deliveries`, undefined, { method: 'GET' });
    const mine = listedByApi.body.webhook_deliveries.find((d: { event_id: string }) => d.event_id === [...ids][0]);
    expect(mine).toMatchObject({
      event_type: 'domain.listed',
      status: 'delivered',
      attempts: [
        { attempt: 1, status_code: 500 },
        { attempt: 2, status_code: 200 },
      ],
    });
    // A wrong secret does not verify: the signature is over this body with this secret.
    expect(verifySignature('whsec_other', deliveries[0]!.body, String(deliveries[0]!.headers['webhook-signature']), Math.floor(Date.now() / 1000))).toBe(false);
  }, 40_000);

  it('switching monitoring off stops the runs; switching it on runs the next at once', async () => {
    const order = await db()
      .selectFrom('domains')
      .innerJoin('orders', 'orders.id', 'domains.order_id')
      .select(['orders.subscription_id', 'domains.id'])
      .where('domains.domain', '=', first)
      .executeTakeFirstOrThrow();
    const runs = async () => (await db().selectFrom('monitor_runs').select('slot').where('domain_id', '=', order.id).execute()).length;
    const off = await postJson(h.service, `/v1/portal/orders/${order.subscription_id}/monitors`, { deliverability: false }, { method: 'PUT' });
    expect(off.status).toBe(200);
    // A run queued before the switch went off may still be running: wait until none is queued.
    await waitFor('no monitoring run queued', async () => (await monitorJobsQueued(order.id)) === 0);
    const before = await runs();
    // With the switch on, a run would come due in the next monitoring slot and be queued by a sweep
    // there: wait for that slot and two sweeps finished in it (the first may have begun before it),
    // and for its queued runs to have run, instead of sleeping longer than MONITOR_INTERVAL_MS.
    const offSlot = monitorSlot(new Date(), 4000);
    await waitFor('the next monitoring slot', () => monitorSlot(new Date(), 4000) !== offSlot, 10_000);
    await waitForJobsFinished('sweep', 2);
    await waitFor('no monitoring run queued', async () => (await monitorJobsQueued(order.id)) === 0);
    expect(await runs()).toBe(before);
    // Switched on, the domain is run in the slot it was switched on in, not left for the next one. The
    // slot is stamped when the run is queued, so this holds however long a busy machine takes to run it.
    const onSlots = [monitorSlot(new Date(), 4000)];
    const on = await postJson(h.service, `/v1/portal/orders/${order.subscription_id}/monitors`, { deliverability: true }, { method: 'PUT' });
    expect(on.status).toBe(200);
    onSlots.push(monitorSlot(new Date(), 4000));
    const slots = await waitFor('a run after switching on', async () => {
      const rows = await db().selectFrom('monitor_runs').select('slot').where('domain_id', '=', order.id).execute();
      return rows.length > before ? rows.map((r) => r.slot) : null;
    });
    expect(onSlots).toContain(slots.find((slot) => Number(slot) >= Number(onSlots[0])));
  }, 60_000);
});
