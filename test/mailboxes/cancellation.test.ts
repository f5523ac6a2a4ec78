import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';
import { graphql } from '../support/test-service.js';
import { FREE_DOMAINS, orderBody, postJson, startOrderingService, type OrderingHarness } from '../orders/support/ordering-fixture.js';
import { cancelAtFakeStripe, saveCardAtFakeStripe } from '../orders/support/stripe-webhooks.js';
import { waitFor } from '../jobs/webhook-receiver.js';
import { waitForJobsFinished } from '../jobs/finished-jobs.js';
import type { SandboxAdapter } from '../../clients/mailboxes/provisioning-adapter.js';

/**
 * A cancelled order's mailboxes are suspended at the provider (here the sandbox), with the jobs on:
 * Stripe's customer.subscription.deleted reaches the webhook door, the order becomes cancelled, the
 * suspend_mailboxes job suspends each active mailbox, their status becomes `suspended` on every door,
 * and one mailbox.suspended event per domain says so (no password in it). The Google adapter's
 * suspension through the same flow is in test/jobs/google-build.test.ts.
 */
const SECRET = 'whsec_cancellation_test_0123456789';
const [first, second, kept] = [FREE_DOMAINS[10]!, FREE_DOMAINS[11]!, FREE_DOMAINS[12]!];
let fake: FakeStripe;
let h: OrderingHarness;
let cancelled: { subscription_id: string; order_id: number };
let other: { subscription_id: string; order_id: number };

const sandbox = () => h.service.jobs.environment.adapter as SandboxAdapter;
const statuses = async (domains: string[]) =>
  (
    await h.service.services.db
      .selectFrom('mailboxes')
      .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
      .select(['domains.domain', 'mailboxes.local_part', 'mailboxes.status'])
      .where('domains.domain', 'in', domains)
      .orderBy('domains.domain')
      .orderBy('mailboxes.id')
      .execute()
  ).map((r) => `${r.local_part}@${r.domain} ${r.status}`);

beforeAll(async () => {
  fake = await startFakeStripe();
  fake.addPrice({ id: 'price_demo_google_unwarmed', unit_amount: 350 });
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_API_BASE: fake.url,
      STRIPE_WEBHOOK_SECRET: SECRET,
      JOBS: 'on',
      // The placement's preview looks the domains up; on a loaded machine the fixture's 400 ms, one try, can time out.
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '300',
    },
  });
  await saveCardAtFakeStripe(h.service, fake, SECRET, '4242424242424242');
  const a = await postJson(h.service, '/v1/orders', orderBody([first, second], 2), { headers: { 'idempotency-key': 'cancel-order-0001' } });
  const b = await postJson(h.service, '/v1/orders', orderBody([kept], 1), { headers: { 'idempotency-key': 'cancel-order-0002' } });
  if (a.status !== 200 || b.status !== 200) throw new Error(`an order was refused: ${JSON.stringify([a.body, b.body])}`);
  cancelled = a.body;
  other = b.body;
  await waitFor('the mailboxes made by the builds', async () => {
    const all = await statuses([first, second, kept]);
    return all.length === 5 && all.every((s) => s.endsWith(' active'));
  });
}, 90_000);
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

describe('cancelling an order suspends its mailboxes', () => {
  it('Stripe’s cancellation reaches the webhook door; each active mailbox is suspended at the provider and recorded, per domain', async () => {
    expect(sandbox().suspended.size).toBe(0);
    const hooked = await cancelAtFakeStripe(h.service, fake, SECRET, cancelled.subscription_id);
    expect(hooked.status).toBe(200);
    expect(await hooked.json()).toEqual({ received: true, applied: 'subscription' });
    await waitFor('the cancelled order’s mailboxes suspended', async () => (await statuses([first, second])).every((s) => s.endsWith(' suspended')));
    expect(await statuses([first, second, kept])).toEqual([
      `alex@${first} suspended`,
      `sam@${first} suspended`,
      `alex@${second} suspended`,
      `sam@${second} suspended`,
      `alex@${kept} active`,
    ]);
    // The provider was asked: the sandbox reports them suspended from now on; the other order's are untouched.
    expect([...sandbox().suspended].sort()).toEqual([`alex@${first}`, `alex@${second}`, `sam@${first}`, `sam@${second}`].sort());

    const events = await waitFor('one mailbox.suspended event per domain', async () => {
      const rows = await h.service.services.db.selectFrom('events').select(['id', 'data']).where('type', '=', 'mailbox.suspended').execute();
      return rows.length === 2 ? rows : null;
    });
    const data = events.map((e) => JSON.parse(e.data)).sort((x, y) => String(x.domain).localeCompare(String(y.domain)));
    expect(data).toEqual(
      [first, second].sort().map((domain) => ({
        domain,
        order_id: cancelled.order_id,
        subscription_id: cancelled.subscription_id,
        mailboxes: [`alex@${domain}`, `sam@${domain}`],
        status: 'suspended',
        cause: 'order_cancelled',
        message: expect.stringContaining(`are suspended at the mail provider`),
      })),
    );
    // No password in an event: every sealed password is 20 characters, and none appears.
    for (const password of [...sandbox().made.values()].map((m) => m.password)) for (const e of events) expect(e.data).not.toContain(password);
  });

  it('REST, GraphQL and MCP list them suspended; the events list carries mailbox.suspended; the export of the order is refused', async () => {
    const rest = await (await h.service.api(`/v1/portal/domains/${first}/mailboxes`)).json();
    expect(rest.mailboxes.map((m: { status: string }) => m.status)).toEqual(['suspended', 'suspended']);
    const gql = await graphql(h.service, 'query ($d: String!) { domainMailboxes(domain: $d) { mailboxes { email status } } }', { d: second });
    expect(gql.body.data.domainMailboxes.mailboxes).toEqual([
      { email: `alex@${second}`, status: 'suspended' },
      { email: `sam@${second}`, status: 'suspended' },
    ]);
    const mcp = new Client({ name: 'cancellation-test', version: '1' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${h.service.demo.key}` } } }),
    );
    try {
      const tool = await mcp.callTool({ name: 'list_domain_mailboxes', arguments: { domain: first } });
      const listed = JSON.parse((tool.content as { text: string }[])[0]!.text);
      expect(listed).toEqual(rest);
      const untouched = JSON.parse(
        ((await mcp.callTool({ name: 'list_domain_mailboxes', arguments: { domain: kept } })).content as { text: string }[])[0]!.text,
      );
      expect(untouched.mailboxes).toEqual([{ email: `alex@${kept}`, first_name: 'Alex', last_name: 'Morgan', status: 'active' }]);
    } finally {
      await mcp.close();
    }
    const events = await (await h.service.api('/v1/events?limit=100')).json();
    expect(
      events.data
        .filter((e: { type: string }) => e.type === 'mailbox.suspended')
        .map((e: { data: { domain: string } }) => e.data.domain)
        .sort(),
    ).toEqual([first, second].sort());
    const exported = await h.service.api(`/v1/portal/orders/${cancelled.subscription_id}/export`);
    expect(exported.status).toBe(409);
    expect(await exported.json()).toMatchObject({ code: 'order_suspended', order_status: 'cancelled' });
    expect((await h.service.api(`/v1/portal/orders/${other.subscription_id}/export`)).status).toBe(200);
  });

  it('the same webhook again, and later sweeps, suspend nothing twice and record no more events', async () => {
    const again = await cancelAtFakeStripe(h.service, fake, SECRET, cancelled.subscription_id);
    expect(again.status).toBe(200);
    // Several sweeps (every 300 ms) pass, each of which would queue a suspension of a cancelled order with active mailboxes.
    await waitForJobsFinished('sweep', 3);
    expect(await h.service.services.db.selectFrom('events').select('id').where('type', '=', 'mailbox.suspended').execute()).toHaveLength(2);
    expect(await h.service.services.db.selectFrom('events').select('id').where('type', '=', 'mailbox.disconnected').execute()).toEqual([]);
  });

  it('the sweep suspends a cancelled order’s mailboxes the webhook’s hook missed', async () => {
    // As if the cancellation had been applied by an instance whose hook failed: the order is cancelled, its mailbox active.
    await h.service.services.db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', other.order_id).execute();
    await waitFor('the sweep’s suspension', async () => (await statuses([kept]))[0] === `alex@${kept} suspended`);
    expect(sandbox().suspended.has(`alex@${kept}`)).toBe(true);
    const rows = await h.service.services.db.selectFrom('events').select('data').where('type', '=', 'mailbox.suspended').execute();
    expect(rows.map((r) => JSON.parse(r.data).domain).filter((d: string) => d === kept)).toEqual([kept]);
  });
});
