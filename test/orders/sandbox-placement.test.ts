import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { graphql } from '../support/test-service.js';
import { FREE_DOMAINS, orderBody, postJson, saveCardThroughSandboxPage, startOrderingService, type OrderingHarness } from './support/ordering-fixture.js';

let h: OrderingHarness;
const free = (() => {
  let i = 0;
  return () => FREE_DOMAINS[i++]!;
})();

beforeAll(async () => {
  h = await startOrderingService({ rateLimits: { order: 1000 } });
});
afterAll(async () => {
  await h?.close();
});

const place = (body: unknown, key: string, apiKey?: string) =>
  postJson(h.service, '/v1/orders', body, { headers: { 'idempotency-key': key }, ...(apiKey ? { key: apiKey } : {}) });

describe('cards through the sandbox page', () => {
  it('no card: placing is a 409 and nothing is recorded, even when a code makes the first invoice free', async () => {
    const domain = free();
    const first = await place(orderBody([domain], 1, { promotion_code: 'FIRSTFREE' }), 'no-card-key-1');
    expect(first.status).toBe(409);
    expect(first.body.code).toBe('no_payment_method');
    expect(first.body.detail).toMatch(/setup-link/);
    const preview = await postJson(h.service, '/v1/orders/preview', orderBody([domain], 1, { promotion_code: 'FIRSTFREE' }));
    expect(preview.body.price.first_invoice).toBe(0);
    const dashboard = await (await h.service.api('/v1/portal/dashboard')).json();
    expect(JSON.stringify(dashboard)).not.toContain(domain);
  });

  it("setup link → card page → 303 to the portal (example.com is no one's site) → GET /v1/payment-method shows visa 4242", async () => {
    const before = await (await h.service.api('/v1/payment-method')).json();
    expect(before.on_file).toBe(false);
    const { location } = await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
    // success_url https://example.com/saved is reserved (RFC 2606), so not followed: the portal confirms instead.
    expect(location).toBe(`${h.service.apiUrl}/portal/card-saved`);
    const after = await (await h.service.api('/v1/payment-method')).json();
    expect(after).toMatchObject({ on_file: true, brand: 'visa', last4: '4242' });
  });

  it('the setup link takes http(s) return URLs or none: another scheme is a 422', async () => {
    expect((await postJson(h.service, '/v1/payment-method/setup-link', { cancel_url: 'https://x.example/c' })).status).toBe(200);
    expect((await postJson(h.service, '/v1/payment-method/setup-link', {})).status).toBe(200);
    expect((await postJson(h.service, '/v1/payment-method/setup-link', { success_url: 'javascript:alert(1)', cancel_url: 'https://x.example/c' })).status).toBe(
      422,
    );
    expect((await postJson(h.service, '/v1/payment-method/setup-link', { success_url: 'ftp://x.example/s', cancel_url: 'https://x.example/c' })).status).toBe(
      422,
    );
    expect((await postJson(h.service, '/v1/payment-method/setup-link', { success_url: 'not a url', cancel_url: 'https://x.example/c' })).status).toBe(422);
  });

  it('a used card link no longer works', async () => {
    const link = await postJson(h.service, '/v1/payment-method/setup-link', { success_url: 'https://example.com/s', cancel_url: 'https://example.com/c' });
    const form = {
      method: 'POST',
      redirect: 'manual' as const,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card_number=4242424242424242',
    };
    expect((await fetch(link.body.url, form)).status).toBe(303);
    expect((await fetch(link.body.url, form)).status).toBe(410);
  });
});

describe('placing an order with the sandbox processor', () => {
  let placed: any;
  let domains: string[];

  it('charges the card, answers SPEC 2.4, and the domains are on the dashboard at once, queued', async () => {
    domains = [free(), free()];
    const body = orderBody(domains, 3, { promotion_code: 'WELCOME20' });
    const preview = await postJson(h.service, '/v1/orders/preview', body);
    expect(preview.status).toBe(200);
    const response = await place(body, 'order-one-0001');
    expect(response.status).toBe(200);
    placed = response.body;
    expect(placed).toMatchObject({ quantity: 6, replayed: false, charged: { amount: preview.body.price.first_invoice, currency: 'usd' } });
    expect(placed.charged.amount).toBe(Math.round(6 * 350 * 0.8));
    expect(placed.order_id).toBeTypeOf('number');
    expect(placed.reference).toMatch(/^ORD-/);
    expect(placed.subscription_id).toMatch(/^sbx_sub_/);

    const dashboard = await (await h.service.api('/v1/portal/dashboard')).json();
    const order = dashboard.orders.find((o: any) => o.subscription_id === placed.subscription_id);
    expect(order.domains.map((d: any) => d.domain).sort()).toEqual([...domains].sort());
    for (const d of order.domains) expect(d).toMatchObject({ build_state: 'queued', mailbox_count: 3, forward_to: 'main-site.com' });
  });

  it('billing shows the charged invoice', async () => {
    const billing = await (await h.service.api('/v1/portal/billing')).json();
    const invoice = billing.invoices.find((i: any) => i.order_reference === placed.reference);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: placed.charged.amount, past_due: false });
  });

  it('a retry with the same key replays the order and places nothing', async () => {
    const again = await place(orderBody(domains, 3, { promotion_code: 'WELCOME20' }), 'order-one-0001');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...placed, replayed: true });
    const subs = await h.service.services.db
      .selectFrom('sandbox_subscriptions')
      .select('subscription_id')
      .where('idempotency_key', '=', 'order-one-0001')
      .execute();
    expect(subs).toHaveLength(1);
  });

  it('the same key with a different body is a 409 and nothing is charged', async () => {
    const other = await place(orderBody([free()], 1), 'order-one-0001');
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('a domain already on an order (this account or another) is refused on preview and on place', async () => {
    const mine = await postJson(h.service, '/v1/orders/preview', orderBody([domains[0]!], 1));
    expect(mine.status).toBe(400);
    expect(mine.body.problems[0].issues[0].code).toBe('domain_on_your_order');
    const otherAccount = await h.service.seedAccount();
    const theirs = await postJson(h.service, '/v1/orders/preview', orderBody([domains[0]!], 1), { key: otherAccount.key });
    expect(theirs.status).toBe(400);
    expect(theirs.body.problems[0].issues[0].code).toBe('domain_on_another_order');
    expect(theirs.body.problems[0].issues[0].message).not.toContain(placed.reference);
  });

  it('Idempotency-Key missing or malformed is a 422 saying so (a field not in the expected shape, SPEC 7)', async () => {
    const body = orderBody([free()], 1);
    const missing = await postJson(h.service, '/v1/orders', body);
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/Idempotency-Key/);
    for (const bad of ['short', 'has space in it', 'x'.repeat(65), 'bad/slash-key']) {
      const response = await place(body, bad);
      expect(response.status).toBe(422);
      expect(response.body.code).toBe('idempotency_key_malformed');
    }
  });

  it('placing through GraphQL answers the same shape', async () => {
    const domain = free();
    const result = await graphql(
      h.service,
      `mutation($o: OrderInput!, $k: String) { placeOrder(order: $o, idempotencyKey: $k) { orderId quantity replayed charged { amount currency } } }`,
      {
        o: { sku: 'google-inbox-unwarmed', domains: [{ domain, mailboxes: [{ firstName: 'Ada', lastName: 'Byron', localPart: 'ada' }] }] },
        k: 'graphql-order-1',
      },
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.placeOrder).toMatchObject({ quantity: 1, replayed: false, charged: { amount: 350, currency: 'usd' } });
    const missingKey = await graphql(h.service, `mutation($o: OrderInput!) { placeOrder(order: $o) { orderId } }`, {
      o: { sku: 'google-inbox-unwarmed', domains: [{ domain: free(), mailboxes: [{ firstName: 'Ada', lastName: 'Byron', localPart: 'ada' }] }] },
    });
    expect(missingKey.body.errors?.[0]?.extensions?.status).toBe(422);
    expect(missingKey.body.errors?.[0]?.message).toMatch(/"idempotencyKey"/);
  });
});

describe('a declined card and a price change', () => {
  it('a card that is declined gives 402, nothing recorded, and the key can be used again after saving a good card', async () => {
    const account = await h.service.seedAccount();
    await saveCardThroughSandboxPage(h.service, '4000000000000341', account.key);
    const domain = free();
    const declined = await place(orderBody([domain], 2), 'declined-key-1', account.key);
    expect(declined.status).toBe(402);
    expect(declined.body.code).toBe('card_declined');
    const billing = await (await h.service.api('/v1/portal/billing', { key: account.key })).json();
    expect(billing.invoices.every((i: any) => !i.order_reference?.startsWith('ORD-') || i.order_reference.startsWith('ORD-DEMO'))).toBe(true);
    await saveCardThroughSandboxPage(h.service, '4242424242424242', account.key);
    const accepted = await place(orderBody([domain], 2), 'declined-key-1', account.key);
    expect(accepted.status).toBe(200);
    expect(accepted.body.charged.amount).toBe(700);
  });

  it('placing after the plan price changed since this account previewed the same order is a 409; a new preview lets it through', async () => {
    const account = await h.service.seedAccount();
    await saveCardThroughSandboxPage(h.service, '4242424242424242', account.key);
    const body = orderBody([free()], 2);
    expect((await postJson(h.service, '/v1/orders/preview', body, { key: account.key })).body.price.unit_amount).toBe(350);
    await h.service.services.db
      .updateTable('plans')
      .set({ unit_amount: 400 })
      .where('account_id', '=', account.accountId)
      .where('sku', '=', 'google-inbox-unwarmed')
      .execute();
    const refused = await place(body, 'price-change-1', account.key);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('price_changed');
    expect(
      await h.service.services.db.selectFrom('sandbox_subscriptions').select('subscription_id').where('idempotency_key', '=', 'price-change-1').execute(),
    ).toHaveLength(0);
    const again = await postJson(h.service, '/v1/orders/preview', body, { key: account.key });
    expect(again.body.price).toMatchObject({ unit_amount: 400, total: 800 });
    const placed = await place(body, 'price-change-1', account.key);
    expect(placed.status).toBe(200);
    expect(placed.body.charged.amount).toBe(800);
  });
});

describe('idempotency under concurrency and crashes', () => {
  it('20 simultaneous placements with one key: one order, one charge, the others replay it', async () => {
    const account = await h.service.seedAccount();
    await saveCardThroughSandboxPage(h.service, '4242424242424242', account.key);
    const body = orderBody([free()], 2);
    const answers = await Promise.all(Array.from({ length: 20 }, () => place(body, 'concurrent-key-1', account.key)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.filter((a) => !a.body.replayed)).toHaveLength(1);
    expect(new Set(ok.map((a) => a.body.order_id)).size).toBe(1);
    const db = h.service.services.db;
    expect(
      await db
        .selectFrom('orders')
        .select('id')
        .where('account_id', '=', account.accountId)
        .where('reference', 'like', 'ORD-%')
        .where('reference', 'not like', 'ORD-DEMO%')
        .execute(),
    ).toHaveLength(1);
    const customer = await db.selectFrom('accounts').select('processor_customer_id').where('id', '=', account.accountId).executeTakeFirstOrThrow();
    expect(
      await db.selectFrom('sandbox_subscriptions').select('subscription_id').where('customer_id', '=', customer.processor_customer_id!).execute(),
    ).toHaveLength(1);
  });

  it('two keys at once: two orders, two charges', async () => {
    const account = await h.service.seedAccount();
    await saveCardThroughSandboxPage(h.service, '4242424242424242', account.key);
    const [a, b] = await Promise.all([place(orderBody([free()], 1), 'two-keys-a-1', account.key), place(orderBody([free()], 1), 'two-keys-b-1', account.key)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.order_id).not.toBe(b.body.order_id);
    const customer = await h.service.services.db
      .selectFrom('accounts')
      .select('processor_customer_id')
      .where('id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    expect(
      await h.service.services.db
        .selectFrom('sandbox_subscriptions')
        .select('subscription_id')
        .where('customer_id', '=', customer.processor_customer_id!)
        .execute(),
    ).toHaveLength(2);
  });

  it('a crash after the charge and before the order was recorded: the retry with the same key records exactly one order and charges nothing more', async () => {
    const account = await h.service.seedAccount();
    await saveCardThroughSandboxPage(h.service, '4242424242424242', account.key);
    const db = h.service.services.db;
    const body = orderBody([free()], 2);
    const key = 'crash-recovery-1';
    // What the dead request left: its claim on the key (lock lapsed) and the processor's charge.
    const { hashOf } = await import('../../resolvers/orders/order-hash.js');
    const { camelizeKeys } = await import('../../operations/snake-to-camel.js');
    await db
      .insertInto('idempotency_records')
      .values({ account_id: account.accountId, key, request_hash: hashOf(camelizeKeys(body)), state: 'in_progress', locked_until: new Date(Date.now() - 1000) })
      .execute();
    const customer = await db.selectFrom('accounts').select('processor_customer_id').where('id', '=', account.accountId).executeTakeFirstOrThrow();
    const charge = await h.service.services.payments.createSubscription({
      accountId: account.accountId,
      customerId: customer.processor_customer_id!,
      priceRef: 'price_demo_google_unwarmed',
      quantity: 2,
      expected: { unitAmount: 350, currency: 'usd', firstInvoice: 700 },
      idempotencyKey: key,
    });
    const retry = await place(body, key, account.key);
    expect(retry.status).toBe(200);
    expect(retry.body.subscription_id).toBe(charge.subscriptionId);
    expect(
      await db.selectFrom('sandbox_subscriptions').select('subscription_id').where('customer_id', '=', customer.processor_customer_id!).execute(),
    ).toHaveLength(1);
    expect(await db.selectFrom('orders').select('id').where('subscription_id', '=', charge.subscriptionId).execute()).toHaveLength(1);
    const replay = await place(body, key, account.key);
    expect(replay.body).toEqual({ ...retry.body, replayed: true });
  });
});

describe('the 12-per-hour order allowance', () => {
  it('counts every placement attempt, accepted or declined, but not replays', async () => {
    const limited = await startOrderingService({ rateLimits: { order: 3 } });
    try {
      const s = limited.service;
      const account = await s.seedAccount();
      const { key } = await createApiKey(s.services.db, account.accountId, ['orders:place', 'read']);
      await saveCardThroughSandboxPage(s, '4000000000000341', key);
      const go = (body: unknown, k: string) => postJson(s, '/v1/orders', body, { key, headers: { 'idempotency-key': k } });
      expect((await go(orderBody([FREE_DOMAINS[30]!], 1), 'limit-key-1')).status).toBe(402);
      await saveCardThroughSandboxPage(s, '4242424242424242', key);
      expect((await go(orderBody([FREE_DOMAINS[31]!], 1), 'limit-key-2')).status).toBe(200);
      // A replay is not counted.
      expect((await go(orderBody([FREE_DOMAINS[31]!], 1), 'limit-key-2')).status).toBe(200);
      expect((await go(orderBody([FREE_DOMAINS[32]!], 1), 'limit-key-3')).status).toBe(200);
      const spent = await go(orderBody([FREE_DOMAINS[33]!], 1), 'limit-key-4');
      expect(spent.status).toBe(429);
      expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await go(orderBody([FREE_DOMAINS[31]!], 1), 'limit-key-2')).body.replayed).toBe(true);
    } finally {
      await limited.close();
    }
  });
});
