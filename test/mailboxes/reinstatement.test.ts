import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';
import { graphql } from '../support/test-service.js';
import { FREE_DOMAINS, orderBody, postJson, startOrderingService, type OrderingHarness } from '../orders/support/ordering-fixture.js';
import { cancelAtFakeStripe, saveCardAtFakeStripe } from '../orders/support/stripe-webhooks.js';
import { waitFor } from '../jobs/webhook-receiver.js';
import type { SandboxAdapter } from '../../clients/mailboxes/provisioning-adapter.js';
import { alertEmailText } from '../../jobs/send-alert-email.js';
import { REINSTATE_GRACE_DAYS } from '../../resolvers/orders/reinstatement-checks.js';

/**
 * Reinstating a cancelled order within its grace period, with the jobs on and the sandbox provider:
 * Stripe's cancellation suspends the mailboxes (test/mailboxes/cancellation.test.ts), then
 * POST /v1/orders/{order_id}/reinstate (GraphQL reinstateOrder, MCP reinstate_order) starts a new
 * subscription at the (fake) Stripe on the card on file, the order is active again, the
 * reactivate_mailboxes job takes each suspended mailbox up again at the provider, and one
 * mailbox.reactivated event per domain says so. A retry with the same key charges once; a declined
 * card, an order past its grace period, or one that is not cancelled are refused and change nothing.
 * The Google adapter's reactivation through the same flow is in test/jobs/google-build.test.ts.
 */
const SECRET = 'whsec_reinstatement_test_0123456789';
const [restA, restB, gqlDomain, mcpDomain, lateDomain] = [FREE_DOMAINS[16]!, FREE_DOMAINS[17]!, FREE_DOMAINS[18]!, FREE_DOMAINS[19]!, FREE_DOMAINS[20]!];
type Placed = { order_id: number; subscription_id: string; reference: string };
let fake: FakeStripe;
let h: OrderingHarness;
let mcp: Client;
const placed: Record<'rest' | 'gql' | 'mcp' | 'late', Placed> = {} as never;

const db = () => h.service.services.db;
const sandbox = () => h.service.jobs.environment.adapter as SandboxAdapter;
const statuses = async (domains: string[]) =>
  (
    await db()
      .selectFrom('mailboxes')
      .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
      .select(['domains.domain', 'mailboxes.local_part', 'mailboxes.status'])
      .where('domains.domain', 'in', domains)
      .orderBy('domains.domain')
      .orderBy('mailboxes.id')
      .execute()
  ).map((r) => `${r.local_part}@${r.domain} ${r.status}`);
const orderRow = (id: number) =>
  db().selectFrom('orders').select(['status', 'processor_subscription_id', 'cancelled_at', 'reinstated_at']).where('id', '=', id).executeTakeFirstOrThrow();
const eventsOf = async (type: string) =>
  (await db().selectFrom('events').select('data').where('type', '=', type).execute()).map((e) => JSON.parse(e.data) as Record<string, unknown>);
const chargesOf = () => fake.charges.length;
const reinstate = async (orderId: number, key: string | null) => {
  const response = await h.service.api(`/v1/orders/${orderId}/reinstate`, { method: 'POST', headers: key ? { 'idempotency-key': key } : {} });
  return { status: response.status, body: (await response.json()) as any };
};
const mcpCall = async (name: string, args: Record<string, unknown>) => {
  const result = await mcp.callTool({ name, arguments: args });
  return { isError: result.isError === true, body: JSON.parse((result.content as { text: string }[])[0]!.text) };
};
const REINSTATE_GQL = `mutation ($id: Int!, $key: String) { reinstateOrder(orderId: $id, idempotencyKey: $key) {
  orderId reference subscriptionId processorSubscriptionId status charged { amount currency } total mailboxesToReactivate replayed } }`;

async function cancelled(domains: string[]) {
  await waitFor('the cancelled order’s mailboxes suspended', async () => (await statuses(domains)).every((s) => s.endsWith(' suspended')));
}

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
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '300',
    },
  });
  await saveCardAtFakeStripe(h.service, fake, SECRET, '4242424242424242');
  const orders: [keyof typeof placed, string[]][] = [
    ['rest', [restA, restB]],
    ['gql', [gqlDomain]],
    ['mcp', [mcpDomain]],
    ['late', [lateDomain]],
  ];
  for (const [name, domains] of orders) {
    const answer = await postJson(h.service, '/v1/orders', orderBody(domains, 2), { headers: { 'idempotency-key': `reinstate-place-${name}` } });
    if (answer.status !== 200) throw new Error(`an order was refused: ${JSON.stringify(answer.body)}`);
    placed[name] = answer.body;
  }
  const all = [restA, restB, gqlDomain, mcpDomain, lateDomain];
  await waitFor('the mailboxes made by the builds', async () => {
    const made = await statuses(all);
    return made.length === 10 && made.every((s) => s.endsWith(' active'));
  });
  for (const name of ['rest', 'gql', 'mcp', 'late'] as const) {
    const hooked = await cancelAtFakeStripe(h.service, fake, SECRET, placed[name].subscription_id);
    if (hooked.status !== 200) throw new Error(`the cancellation was refused: ${await hooked.text()}`);
  }
  await cancelled(all);
  mcp = new Client({ name: 'reinstatement-test', version: '1' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${h.service.demo.key}` } } }),
  );
}, 240_000);
afterAll(async () => {
  await mcp?.close();
  await h?.close();
  await fake?.close();
});

describe('reinstating a cancelled order within its grace period', () => {
  it('the cancellation recorded when it happened, which starts the grace period', async () => {
    const row = await orderRow(placed.rest.order_id);
    expect(row.status).toBe('cancelled');
    expect(row.cancelled_at).not.toBeNull();
    expect(Date.now() - new Date(row.cancelled_at!).getTime()).toBeLessThan(REINSTATE_GRACE_DAYS * 86_400_000);
    expect(sandbox().suspended.has(`alex@${restA}`)).toBe(true);
  });

  it('REST: a new subscription on the card on file, the order active, each mailbox active again at the provider, one mailbox.reactivated per domain', async () => {
    const before = chargesOf();
    const answer = await reinstate(placed.rest.order_id, 'reinstate-rest-0001');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      order_id: placed.rest.order_id,
      reference: placed.rest.reference,
      subscription_id: placed.rest.subscription_id,
      status: 'active',
      charged: { amount: 2 * 2 * 350, currency: 'usd' },
      total: 1400,
      mailboxes_to_reactivate: 4,
      replayed: false,
    });
    expect(answer.body.processor_subscription_id).not.toBe(placed.rest.subscription_id);
    expect(chargesOf()).toBe(before + 1);
    // At the (fake) Stripe: a new active subscription for the same quantity on the same price, naming the order.
    const created = fake.subscriptions().find((s) => s.id === answer.body.processor_subscription_id) as { status: string; metadata: Record<string, string> };
    expect(created.status).toBe('active');
    expect(created.metadata).toMatchObject({ order_reference: placed.rest.reference, reinstates: placed.rest.subscription_id });

    expect(await orderRow(placed.rest.order_id)).toMatchObject({
      status: 'active',
      processor_subscription_id: answer.body.processor_subscription_id,
      cancelled_at: null,
    });
    await waitFor('the mailboxes active again', async () => (await statuses([restA, restB])).every((s) => s.endsWith(' active')));
    for (const email of [`alex@${restA}`, `sam@${restA}`, `alex@${restB}`, `sam@${restB}`]) expect(sandbox().suspended.has(email)).toBe(false);
    const events = await waitFor('one mailbox.reactivated per domain', async () => {
      const rows = (await eventsOf('mailbox.reactivated')).filter((e) => e.order_id === placed.rest.order_id);
      return rows.length === 2 ? rows : null;
    });
    expect(events.sort((x, y) => String(x.domain).localeCompare(String(y.domain)))).toEqual(
      [restA, restB].sort().map((domain) => ({
        domain,
        order_id: placed.rest.order_id,
        subscription_id: placed.rest.subscription_id,
        mailboxes: [`alex@${domain}`, `sam@${domain}`],
        status: 'active',
        cause: 'order_reinstated',
        message: expect.stringContaining('are active again at the mail provider'),
      })),
    );
    // The invoice of the new subscription is on the billing page.
    const billing = await (await h.service.api('/v1/portal/billing')).json();
    expect(billing.invoices.some((i: { amount_paid: number }) => i.amount_paid === 1400)).toBe(true);
    // Every door lists them active; the events list carries mailbox.reactivated.
    const listed = await (await h.service.api(`/v1/portal/domains/${restA}/mailboxes`)).json();
    expect(listed.mailboxes.map((m: { status: string }) => m.status)).toEqual(['active', 'active']);
    const listedEvents = await (await h.service.api('/v1/events?limit=100')).json();
    expect(listedEvents.data.filter((e: { type: string }) => e.type === 'mailbox.reactivated').length).toBeGreaterThanOrEqual(2);
    // The export works again.
    expect((await h.service.api(`/v1/portal/orders/${placed.rest.subscription_id}/export`)).status).toBe(200);
  });

  it('a retry with the same Idempotency-Key answers the same reinstatement and charges nothing more; a new key is refused: not cancelled', async () => {
    const before = chargesOf();
    const again = await reinstate(placed.rest.order_id, 'reinstate-rest-0001');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ order_id: placed.rest.order_id, status: 'active', replayed: true });
    expect(chargesOf()).toBe(before);
    const other = await reinstate(placed.rest.order_id, 'reinstate-rest-0002');
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'order_not_cancelled', order_status: 'active' });
    expect(other.body.detail).toMatch(/is active, not cancelled, so there is nothing to reinstate and nothing was charged/);
    expect(chargesOf()).toBe(before);
    // A late word from Stripe about the ended subscription no longer touches the order.
    const late = await cancelAtFakeStripe(h.service, fake, SECRET, placed.rest.subscription_id);
    expect(await late.json()).toEqual({ received: true, applied: 'ignored' });
    expect((await orderRow(placed.rest.order_id)).status).toBe('active');
  });

  it('without an Idempotency-Key, or for an order that is not the caller’s: refused, nothing charged', async () => {
    const before = chargesOf();
    const missing = await reinstate(placed.gql.order_id, null);
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('idempotency_key_missing');
    expect(missing.body.detail).toMatch(/never charges twice/);
    const unknown = await reinstate(999_999, 'reinstate-unknown-1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('order_not_found');
    expect(chargesOf()).toBe(before);
  });

  it('a declined card is a 402 with a sentence; the order stays cancelled and its mailboxes suspended; then a good card reinstates it (GraphQL)', async () => {
    await saveCardAtFakeStripe(h.service, fake, SECRET, '4000000000000341');
    const before = chargesOf();
    const declined = await graphql(h.service, REINSTATE_GQL, { id: placed.gql.order_id, key: 'reinstate-gql-0001' });
    expect(declined.body.errors![0]).toMatchObject({ extensions: { code: 'card_declined', status: 402 } });
    expect(declined.body.errors![0].message).toMatch(/declined, so nothing was charged and the order .* stays cancelled/);
    expect(chargesOf()).toBe(before);
    expect((await orderRow(placed.gql.order_id)).status).toBe('cancelled');
    expect(await statuses([gqlDomain])).toEqual([`alex@${gqlDomain} suspended`, `sam@${gqlDomain} suspended`]);
    const rest = await reinstate(placed.gql.order_id, 'reinstate-gql-0001');
    expect(rest.status).toBe(402);
    expect(rest.body.code).toBe('card_declined');

    await saveCardAtFakeStripe(h.service, fake, SECRET, '4242424242424242');
    // The same key again: the declined attempt charged nothing and left the key free.
    const answer = await graphql(h.service, REINSTATE_GQL, { id: placed.gql.order_id, key: 'reinstate-gql-0001' });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.reinstateOrder).toMatchObject({ orderId: placed.gql.order_id, status: 'active', mailboxesToReactivate: 2, replayed: false });
    expect(chargesOf()).toBe(before + 1);
    await waitFor('the GraphQL order’s mailboxes active', async () => (await statuses([gqlDomain])).every((s) => s.endsWith(' active')));
    const gql = await graphql(h.service, 'query ($d: String!) { domainMailboxes(domain: $d) { mailboxes { status } } }', { d: gqlDomain });
    expect(gql.body.data.domainMailboxes.mailboxes).toEqual([{ status: 'active' }, { status: 'active' }]);
    await waitFor('its mailbox.reactivated', async () => (await eventsOf('mailbox.reactivated')).some((e) => e.domain === gqlDomain));
  });

  it('a domain of the order held by another account’s placement: refused naming it, nothing charged', async () => {
    const other = await db().insertInto('accounts').values({ name: 'Someone else' }).returning('id').executeTakeFirstOrThrow();
    await db()
      .insertInto('domain_reservations')
      .values({ domain: mcpDomain, account_id: other.id, idempotency_key: 'their-placement-1', expires_at: new Date(Date.now() + 600_000) })
      .execute();
    const before = chargesOf();
    const held = await reinstate(placed.mcp.order_id, 'reinstate-held-0001');
    expect(held.status).toBe(409);
    expect(held.body).toMatchObject({ code: 'domain_held_elsewhere', domains: [mcpDomain] });
    expect(held.body.detail).toMatch(/is being ordered by another account right now, so the order .* cannot be reinstated with it; nothing was charged/);
    expect(chargesOf()).toBe(before);
    await db().deleteFrom('domain_reservations').where('account_id', '=', other.id).execute();
  });

  it('MCP: reinstate_order takes order_id and idempotency_key; the mailboxes come back', async () => {
    const answer = await mcpCall('reinstate_order', { order_id: placed.mcp.order_id, idempotency_key: 'reinstate-mcp-0001' });
    expect(answer.isError).toBe(false);
    expect(answer.body).toMatchObject({ order_id: placed.mcp.order_id, status: 'active', mailboxes_to_reactivate: 2, replayed: false });
    await waitFor('the MCP order’s mailboxes active', async () => (await statuses([mcpDomain])).every((s) => s.endsWith(' active')));
    const listed = await mcpCall('list_domain_mailboxes', { domain: mcpDomain });
    expect(listed.body.mailboxes.map((m: { status: string }) => m.status)).toEqual(['active', 'active']);
    const replay = await mcpCall('reinstate_order', { order_id: placed.mcp.order_id, idempotency_key: 'reinstate-mcp-0001' });
    expect(replay.body).toMatchObject({ order_id: placed.mcp.order_id, replayed: true });
  });

  it('after the grace period: refused on every door with the date it ended; nothing charged, nothing reactivated', async () => {
    const cancelledAt = new Date(Date.now() - (REINSTATE_GRACE_DAYS + 1) * 86_400_000);
    await db().updateTable('orders').set({ cancelled_at: cancelledAt }).where('id', '=', placed.late.order_id).execute();
    const before = chargesOf();
    const rest = await reinstate(placed.late.order_id, 'reinstate-late-0001');
    expect(rest.status).toBe(409);
    expect(rest.body.code).toBe('reinstatement_window_closed');
    expect(rest.body.detail).toMatch(new RegExp(`more than ${REINSTATE_GRACE_DAYS} days ago .* so it can no longer be reinstated; nothing was charged`));
    expect(rest.body.reinstatable_until).toBe(new Date(cancelledAt.getTime() + REINSTATE_GRACE_DAYS * 86_400_000).toISOString());
    const gql = await graphql(h.service, REINSTATE_GQL, { id: placed.late.order_id, key: 'reinstate-late-0002' });
    expect(gql.body.errors![0]).toMatchObject({ message: rest.body.detail, extensions: { code: 'reinstatement_window_closed', status: 409 } });
    const viaMcp = await mcpCall('reinstate_order', { order_id: placed.late.order_id, idempotency_key: 'reinstate-late-0003' });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.body).toMatchObject({ status: 409, code: 'reinstatement_window_closed', detail: rest.body.detail });
    expect(chargesOf()).toBe(before);
    expect((await orderRow(placed.late.order_id)).status).toBe('cancelled');
    expect(await statuses([lateDomain])).toEqual([`alex@${lateDomain} suspended`, `sam@${lateDomain} suspended`]);
  });

  it('the setup of a cancelled order’s domain says its records stay until removed, how to revert them, and the grace period; a reinstated one’s does not', async () => {
    const setup = await (await h.service.api(`/v1/domains/${lateDomain}/setup`)).json();
    expect(setup.reason).toMatch(
      new RegExp(
        `^The order of ${lateDomain.replaceAll('.', '\\.')} is cancelled and its mailboxes are suspended at the mail provider; these records stay in your DNS until you remove them\\. .*revert each publish listed in the domain's journal .*reinstate the order within ${REINSTATE_GRACE_DAYS} days`,
      ),
    );
    const gql = await graphql(h.service, 'query ($d: String!) { domainSetup(domain: $d) { reason } }', { d: lateDomain });
    expect(gql.body.data.domainSetup.reason).toMatch(/these records stay in your DNS until you remove them/);
    const reinstated = await (await h.service.api(`/v1/domains/${restA}/setup`)).json();
    expect(String(reinstated.reason)).not.toMatch(/is cancelled/);
  });

  it('the alert e-mail says the mailboxes are active again and links to them', () => {
    const text = alertEmailText(
      {
        type: 'mailbox.reactivated',
        created: '2026-12-01T10:00:00.000Z',
        data: { domain: restA, message: `The order ORD-1 is reinstated, so its mailboxes on ${restA} (alex@${restA}) are active again at the mail provider.` },
      },
      'https://api.example.com',
    );
    expect(text).toContain('are active again at the mail provider');
    expect(text).toContain(`https://api.example.com/portal/domains/${restA}/mailboxes`);
  });
});
