import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasGraphileJobs } from '../../db/job-queue.js';
import { recordEvent } from '../../resolvers/events/record-event.js';
import { verifySignature } from '../../resolvers/webhooks/sign-payload.js';
import { graphql, startTestService, type TestService } from '../support/test-service.js';
import { startWebhookReceiver, waitFor } from './webhook-receiver.js';

/**
 * Trying webhooks: a test event, a resend, the events list; through REST, GraphQL and MCP, on both
 * databases. And one delivery run by two jobs at once is sent once.
 */
let service: TestService;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const send = async (method: string, path: string, body?: unknown) => {
  const response = await service.api(path, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};
const mcp = async (name: string, args: Record<string, unknown>) => {
  const response = await service.api('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const message = (await response.json()) as { result: { isError?: boolean; content: { text: string }[] } };
  return { isError: Boolean(message.result.isError), body: JSON.parse(message.result.content[0]!.text) };
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  service = await startTestService({
    env: {
      JOBS: 'on',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '3600000',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
      WEBHOOK_RETRY_BASE_MS: '600000',
      // No attempt in this file is meant to meet the deadline. The receivers run in this process: one
      // starved of CPU for longer than the deadline records a timeout for a 200 it was sent, and the
      // next copy of the job sends again (the webhook-delivery-safety flake of stop 29).
      WEBHOOK_TIMEOUT_MS: '120000',
    },
  });
}, 30_000);
afterAll(async () => {
  await service?.close();
  await receiver?.close();
});

/** Which of these job keys are still queued or running (graphile-worker's table on PostgreSQL, else the in-process one). */
async function queuedKeys(keys: string[]): Promise<string[]> {
  const db = service.services.db;
  if (await hasGraphileJobs(db)) {
    const { rows } = await sql<{ key: string }>`select key from graphile_worker.jobs where key in (${sql.join(keys)})`.execute(db);
    return rows.map((r) => r.key);
  }
  const rows = await db.selectFrom('job_queue').select('job_key').where('job_key', 'in', keys).execute();
  return rows.map((r) => r.job_key!);
}

describe('trying webhooks', () => {
  it('a test event reaches the endpoint signed, whatever it is subscribed to; a resend sends the same event id again', async () => {
    const made = await send('POST', '/v1/webhooks', { url: receiver.url, events: ['domain.live'] });
    expect(made.status).toBe(200);
    const id = made.body.webhook_id;
    const tested = await send('POST', `/v1/webhooks/${id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({ delivery_id: expect.any(Number), event_id: expect.stringMatching(/^evt_/), status: 'pending' });
    const first = await waitFor('the test event', async () => receiver.received[0]);
    expect(JSON.parse(first.body)).toMatchObject({ id: tested.body.event_id, type: 'webhook.test', data: { webhook_id: id } });
    expect(first.headers['webhook-id']).toBe(tested.body.event_id);
    expect(verifySignature(made.body.secret, first.body, String(first.headers['webhook-signature']), Math.floor(Date.now() / 1000))).toBe(true);
    await waitFor('delivered', async () => (await send('GET', `/v1/webhooks/${id}/deliveries`)).body.webhook_deliveries[0]?.status === 'delivered');

    const resent = await mcp('resend_webhook_delivery', { webhook_id: id, delivery_id: tested.body.delivery_id });
    expect(resent).toEqual({ isError: false, body: { delivery_id: tested.body.delivery_id, event_id: tested.body.event_id, status: 'pending' } });
    const second = await waitFor('the resend', async () => receiver.received[1]);
    expect(second.headers['webhook-id']).toBe(tested.body.event_id);
    const delivery = await waitFor('two attempts recorded', async () => {
      const d = (await send('GET', `/v1/webhooks/${id}/deliveries`)).body.webhook_deliveries[0];
      return d?.status === 'delivered' && d.attempts.length === 2 ? d : null;
    });
    expect(delivery.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([
      [1, 200],
      [2, 200],
    ]);
    expect(receiver.received).toHaveLength(2);

    const missing = await send('POST', `/v1/webhooks/${id}/deliveries/999999/resend`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/deliveries lists them/);
    const gql = await graphql(service, `mutation { sendTestWebhook(webhookId: ${id}) { deliveryId status } }`);
    expect(gql.body.data.sendTestWebhook).toMatchObject({ deliveryId: expect.any(Number), status: 'pending' });
    const other = await service.seedAccount();
    const foreign = await service.api(`/v1/webhooks/${id}/test`, { method: 'POST', key: other.key });
    expect(foreign.status).toBe(404);
  }, 30_000);

  it('GET /v1/events: newest first, 30 days, paged with limit, starting_after and has_more', async () => {
    const account = await service.seedAccount();
    const db = service.services.db;
    await db
      .insertInto('events')
      .values({ id: 'evt_old_one', account_id: account.accountId, type: 'domain.live', data: '{}', created_at: new Date(Date.now() - 31 * 86_400_000) })
      .execute();
    const ids: string[] = [];
    const base = Date.now();
    for (let i = 0; i < 7; i++) {
      const id = (await recordEvent(db, account.accountId, 'domain.live', { domain: `d${i}.example` }))!;
      ids.push(id);
      // Distinct created_at times, 10 ms apart and after the seeded account's own events, for the
      // newest-first order (set, not waited for).
      await sql`update events set created_at = ${new Date(base + (i + 1) * 10)} where id = ${id}`.execute(db);
    }
    const get = async (query: string) => {
      const response = await service.api(`/v1/events${query}`, { key: account.key });
      return { status: response.status, body: await response.json() };
    };
    const page1 = await get('?limit=3');
    expect(page1.status).toBe(200);
    expect(page1.body.has_more).toBe(true);
    expect(page1.body.data).toHaveLength(3);
    expect(page1.body.data).toContainEqual({ id: ids[6], type: 'domain.live', created: expect.any(String), data: { domain: 'd6.example' } });
    // Page on to the end: every event of the last 30 days once, newest first (the seeded account may
    // have events of its own, older than these), and not the 31-day-old one.
    const seen: string[] = [];
    let page = page1.body;
    for (let i = 0; i < 20; i++) {
      seen.push(...page.data.map((e: { id: string }) => e.id));
      if (!page.has_more) break;
      page = (await get(`?limit=3&starting_after=${seen.at(-1)}`)).body;
    }
    const expected = await db
      .selectFrom('events')
      .select('id')
      .where('account_id', '=', account.accountId)
      .where('created_at', '>=', new Date(Date.now() - 30 * 86_400_000))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect(seen).toEqual(expected.map((e) => e.id));
    expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse());
    expect(seen).not.toContain('evt_old_one');
    const bad = await get('?limit=500');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/1 to 100/);
    const unknown = await get('?starting_after=evt_nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/previous page/);
    const viaMcp = await service.api('/mcp', {
      method: 'POST',
      key: account.key,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_events', arguments: { limit: 2 } } }),
    });
    const tool = JSON.parse(((await viaMcp.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text);
    expect(tool).toEqual({ data: [expect.objectContaining({ id: seen[0] }), expect.objectContaining({ id: seen[1] })], has_more: true });
    const gql = await graphql(service, '{ events(limit: 1) { data { id type dataJson } hasMore } }', {}, account.key);
    expect(gql.body.data.events).toEqual({ data: [{ id: seen[0], type: expect.any(String), dataJson: expect.stringMatching(/^\{/) }], hasMore: true });
  }, 30_000);

  it('the same delivery run by two jobs at once is sent once, with its event id in Webhook-Id; a cut-off attempt shows as interrupted', async () => {
    const db = service.services.db;
    const enqueue = service.jobs.environment.enqueue;
    const account = await service.seedAccount();
    // The first POST is held unanswered until the other copy of the job has run, so the two copies
    // really overlap: the second finds attempt 1 claimed and in flight.
    let posts = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = await startWebhookReceiver(async () => {
      posts += 1;
      await released;
      return 200;
    });
    try {
      const made = await service.api('/v1/webhooks', {
        method: 'POST',
        key: account.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: held.url, events: ['domain.live'] }),
      });
      expect(made.status).toBe(200);
      const webhookId = ((await made.json()) as { webhook_id: number }).webhook_id;
      const eventId = (await recordEvent(db, account.accountId, 'domain.live', { domain: 'twice.example' }))!;
      const delivery = await db
        .insertInto('webhook_deliveries')
        .values({ endpoint_id: webhookId, event_id: eventId, status: 'pending', next_attempt_at: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Two copies of the job, as a key queued again while its first copy ran once made.
      const keys = ['twice-a', 'twice-b'];
      await Promise.all(keys.map((key) => enqueue('deliver_webhook', { deliveryId: delivery.id }, { key })));
      await waitFor('the first POST', async () => posts > 0);
      await waitFor('one copy finished (or a second POST) while the first POST is in flight', async () => posts > 1 || (await queuedKeys(keys)).length === 1);
      expect(posts).toBe(1);
      release();
      await waitFor('both copies finished', async () => (await queuedKeys(keys)).length === 0);
      // Both copies have ended, and the delivery with them: nothing else can POST it now.
      expect(posts).toBe(1);
      expect(held.received).toHaveLength(1);
      expect(held.received[0]!.headers['webhook-id']).toBe(eventId);
      const listed = await service.api(`/v1/webhooks/${webhookId}/deliveries`, { key: account.key });
      expect(((await listed.json()) as { webhook_deliveries: unknown[] }).webhook_deliveries[0]).toMatchObject({
        event_id: eventId,
        status: 'delivered',
        attempts: [{ attempt: 1, status_code: 200, error: null }],
      });

      // A worker that died mid-POST left its attempt open: the next run closes it as interrupted and sends attempt 2.
      const second = (await recordEvent(db, account.accountId, 'domain.live', { domain: 'cut.example' }))!;
      const cut = await db
        .insertInto('webhook_deliveries')
        .values({ endpoint_id: webhookId, event_id: second, status: 'pending', attempts: 1, next_attempt_at: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('webhook_attempts')
        .values({ delivery_id: cut.id, attempt: 1, account_id: account.accountId, at: new Date(Date.now() - 3_600_000), duration_ms: 0, finished_at: null })
        .execute();
      await enqueue('deliver_webhook', { deliveryId: cut.id }, { key: `deliver:${cut.id}:2` });
      await waitFor('the cut delivery delivered', async () => {
        const d = await db.selectFrom('webhook_deliveries').select('status').where('id', '=', cut.id).executeTakeFirst();
        return d?.status === 'delivered';
      });
      const again = (await (await service.api(`/v1/webhooks/${webhookId}/deliveries`, { key: account.key })).json()) as {
        webhook_deliveries: { event_id: string; attempts: unknown[] }[];
      };
      const shown = again.webhook_deliveries.find((d) => d.event_id === second)!;
      expect(shown.attempts).toEqual([
        expect.objectContaining({ attempt: 1, status_code: null, error: expect.stringMatching(/^attempt_interrupted: /) }),
        expect.objectContaining({ attempt: 2, status_code: 200, error: null }),
      ]);
    } finally {
      release();
      await held.close();
    }
  }, 60_000);
});
