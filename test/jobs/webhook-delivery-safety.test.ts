import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';
import { recordEvent } from '../../resolvers/events/record-event.js';
import { FAST_SETUP_RECHECK, jobsZone, publishedSetup, startJobsRdapServer } from './jobs-zone.js';
import { startWebhookReceiver, waitFor } from './webhook-receiver.js';

/**
 * Webhook deliveries against receivers that misbehave, on embedded PGlite (in-process queue) and on
 * PostgreSQL (graphile-worker): a receiver that drip-feeds its answer is cut at the total deadline,
 * and does not keep a build from running; one account has at most WEBHOOK_ACCOUNT_CONCURRENCY
 * attempts in flight; a delivery job that runs twice at once sends once; connection errors reach the
 * customer in our words.
 */
let h: OrderingHarness;
let rdap: Awaited<ReturnType<typeof startJobsRdapServer>>;
let drip: { url: string; requests: number; close(): Promise<void> };
const domain = FREE_DOMAINS[33]!;
/**
 * WEBHOOK_TIMEOUT_MS for this file: 3 s instead of the default 10 s, so the attempts cut at the
 * deadline finish within the test instead of holding the lane for ten seconds each. The receivers
 * drip one byte a second, so every attempt is still cut by the deadline and never by a pause.
 */
const DEADLINE_MS = 3000;
const DRIP_EVERY_MS = 1000;

/** Answers 200 at once, then one byte every DRIP_EVERY_MS, never ending (as the red team's receiver did). */
async function startDripReceiver(): Promise<typeof drip> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const state = { requests: 0 };
  const server: Server = createServer((req, res: ServerResponse) => {
    state.requests += 1;
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('x');
    const timer = setInterval(() => res.write('x'), DRIP_EVERY_MS);
    timers.add(timer);
    res.on('close', () => clearInterval(timer));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise((resolve) => {
        for (const t of timers) clearInterval(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  rdap = await startJobsRdapServer();
  drip = await startDripReceiver();
  h = await startOrderingService({
    rateLimits: { order: 1000, change: 1000 },
    // The test's own calls skip the socket: this process is starved of CPU by the deliveries, and a
    // call on a kept-alive connection the server was closing as idle got ECONNRESET (twice at load 20).
    socketless: true,
    env: {
      JOBS: 'on',
      // The local DNS server answers late while the embedded database is busy: no lookup may time out here.
      DNS_TIMEOUT_MS: '3000',
      DNS_TRIES: '2',
      RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl,
      SANDBOX_BUILD_DELAY_MS: '100',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '1000',
      // Retries far off: each delivery is tried once within the test.
      WEBHOOK_RETRY_BASE_MS: '600000',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
      WEBHOOK_TIMEOUT_MS: String(DEADLINE_MS),
      ALERT_OUTBOX_DIR: `/tmp/outbox-safety-${process.pid}`,
      ...FAST_SETUP_RECHECK,
    },
  });
  h.dns.setRecords(jobsZone([domain]));
}, 30_000);
afterAll(async () => {
  await h?.close();
  await drip?.close();
  await rdap?.close();
});

const db = () => h.service.services.db;
const enqueue = () => h.service.jobs.environment.enqueue;

async function inFlight(): Promise<number> {
  const row = await db().selectFrom('webhook_attempts').select(sql<string>`count(*)`.as('n')).where('finished_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('slow receivers', () => {
  it('four drip-feeding endpoints of one account: each attempt ends at the deadline (WEBHOOK_TIMEOUT_MS), at most 2 run at once, and a build queued behind them runs and goes live before they have all been tried', async () => {
    for (let i = 0; i < 4; i++) {
      const made = await postJson(h.service, '/v1/webhooks', { url: `${drip.url}/drip-${i}`, events: ['*'] });
      expect(made.status).toBe(200);
    }
    // Twelve events: 48 deliveries, 144 s of drip-feeding if they all ran to the deadline in turn
    // (72 s two at a time, more than the minute the build is given), so the lane is still busy when
    // the domain goes live.
    for (let i = 0; i < 12; i++) {
      const id = await recordEvent(db(), h.service.demo.accountId, 'monitor.changed', { domain, n: i });
      await enqueue()('fan_out_event', { eventId: id }, { key: `fan_out:${id}` });
    }
    await waitFor('deliveries in flight', async () => (await inFlight()) > 0, 20_000);
    await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
    const placed = await postJson(h.service, '/v1/orders', orderBody([domain], 1), { headers: { 'idempotency-key': 'drip-build-0001' } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    let most = 0;
    const stateIs = (wanted: string) => async () => {
      most = Math.max(most, await inFlight());
      const row = await db().selectFrom('domains').select('build_state').where('domain', '=', domain).executeTakeFirst();
      return row?.build_state === wanted;
    };
    // The build runs (its DKIM key made, the records checked) and waits for DNS ...
    await waitFor('the build run', stateIs('waiting_for_dns'), 60_000);
    // ... the owner publishes what the setup asks for, and the jobs' next check takes it live.
    const setup = await (await h.service.api(`/v1/domains/${domain}/setup`)).json();
    h.dns.setRecords([...jobsZone([]), ...publishedSetup(setup.records)]);
    await waitFor('the domain live', stateIs('live'), 60_000);
    // The build did not wait for the deliveries: when the domain is live, some of the 48 have not
    // even been tried yet (two at a time, each held to the deadline, they take 72 s at the least).
    const untried = await db().selectFrom('webhook_deliveries').select(sql<string>`count(*)`.as('n')).where('attempts', '=', 0).executeTakeFirstOrThrow();
    expect(Number(untried.n)).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
    // The drip never ends, so an attempt that finished was cut, and only the deadline cuts: without it
    // none would finish. An attempt whose answer had begun keeps its status and says the answer was
    // cut. (When the process is starved of CPU for longer than the deadline, the deadline's timer can
    // run before the answer's first bytes are read: that attempt is a timeout, status null, which is
    // right; so the test waits for cut answers rather than asking it of every attempt.)
    const done = await waitFor(
      'two drip attempts cut with their status kept',
      async () => {
        const rows = await db().selectFrom('webhook_attempts').selectAll().where('finished_at', 'is not', null).execute();
        return rows.filter((a) => a.error?.startsWith('answer_cut: ')).length >= 2 ? rows : null;
      },
      60_000,
    );
    expect(Math.min(...done.map((a) => a.duration_ms))).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
    const outcomes = done.map((a) => `${a.status_code} ${a.error?.split(':')[0]}`);
    expect(outcomes.filter((o) => o !== '200 answer_cut' && o !== 'null timeout')).toEqual([]);
  }, 150_000);
});

describe('connection errors', () => {
  it('a refused connection is shown as our own reason, without the address or the system error', async () => {
    const account = await h.service.seedAccount();
    const closed = await startWebhookReceiver();
    const url = closed.url;
    await closed.close();
    const made = await postJson(h.service, '/v1/webhooks', { url, events: ['domain.live'] }, { key: account.key });
    expect(made.status).toBe(200);
    const eventId = await recordEvent(db(), account.accountId, 'domain.live', { domain: 'refused.example' });
    await enqueue()('fan_out_event', { eventId }, { key: `fan_out:${eventId}` });
    // The delivery lane may still be busy with the drip endpoints of the test before (up to DEADLINE_MS an attempt).
    const attempt = await waitFor(
      'a finished attempt',
      async () => {
        const listed = await postJson(h.service, `/v1/webhooks/${made.body.webhook_id}/deliveries`, undefined, { method: 'GET', key: account.key });
        return listed.body.webhook_deliveries[0]?.attempts?.[0]?.error ? listed.body.webhook_deliveries[0].attempts[0] : null;
      },
      50_000,
    );
    expect(attempt.error).toMatch(/^connection_failed: /);
    expect(attempt.error).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|connect /);
  }, 60_000);
});
