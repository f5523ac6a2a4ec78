import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';
import { sessionGraphql, signUpNew } from '../auth/auth-support.js';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';

const clients: Client[] = [];
async function mcpClient(h: OrderingHarness, key: string): Promise<Client> {
  const client = new Client({ name: 'money-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  clients.push(client);
  return client;
}
type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const textOf = (result: ToolResult) => (result.content as { type: string; text: string }[])[0]!.text;

const billing = async (h: OrderingHarness, key = h.service.demo.key) => (await h.service.api('/v1/portal/billing', { key })).json();

describe('with the sandbox processor', () => {
  let h: OrderingHarness;
  const outbox = mkdtempSync(join(tmpdir(), 'money-outbox-'));
  beforeAll(async () => {
    h = await startOrderingService({
      env: { JOBS: 'on', JOBS_POLL_INTERVAL_MS: '50', ALERT_OUTBOX_DIR: outbox, OPERATOR_EMAIL: 'ops@operator.example', STRIPE_SECRET_KEY: '' },
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await h?.close();
  });

  const mailsTo = (to: string) =>
    readdirSync(outbox)
      .map((f) =>
        readFileSync(join(outbox, f), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '='),
      )
      .filter((m) => m.includes(`To: ${to}`));

  it('a new customer who signs up is on the default plan and can order it (GraphQL with a session)', async () => {
    const { cookie, response } = await signUpNew(h.service, 'first-customer@example.com');
    expect(response.status).toBe(201);
    const { body } = await sessionGraphql(h.service, cookie, '{ catalogue { sku orderable whyNot unitAmount } }');
    expect(body.data.catalogue).toEqual([{ sku: 'google-inbox-unwarmed', orderable: true, whyNot: null, unitAmount: 350 }]);
  });

  it('asking for a plan reaches the operator by e-mail, through REST, GraphQL with a session and MCP', async () => {
    const rest = await postJson(h.service, '/v1/catalogue/requests', { message: 'We want 40 pre-warmed inboxes a month.', sku: 'google-inbox-warmed' });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ requested: true });
    expect(rest.body.detail).toMatch(/e-mail/);
    const mail = mailsTo('ops@operator.example').find((m) => m.includes('40 pre-warmed inboxes'));
    expect(mail).toContain(`account ${h.service.demo.accountId}`);
    expect(mail).toContain('google-inbox-warmed');

    const { cookie } = await signUpNew(h.service, 'asker@example.com');
    const gql = await sessionGraphql(h.service, cookie, 'mutation { requestPlan(input: { message: "Microsoft inboxes please" }) { requested detail } }');
    expect(gql.body.data.requestPlan.detail).toContain('asker@example.com');
    expect(mailsTo('ops@operator.example').some((m) => m.includes('Microsoft inboxes please') && m.includes('Who asked: asker@example.com'))).toBe(true);

    const key = (await createApiKey(h.service.services.db, h.service.demo.accountId, ['write'])).key;
    const client = await mcpClient(h, key);
    const viaMcp = await client.callTool({ name: 'request_plan', arguments: { message: 'Via the assistant' } });
    expect(viaMcp.isError).toBeFalsy();
    expect(mailsTo('ops@operator.example').some((m) => m.includes('Via the assistant'))).toBe(true);
  });

  it('an empty message is a 400 saying what to write, on REST and MCP', async () => {
    const empty = await postJson(h.service, '/v1/catalogue/requests', { message: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toMatch(/what you want to order/);
    const key = (await createApiKey(h.service.services.db, h.service.demo.accountId, ['write'])).key;
    const result = await (await mcpClient(h, key)).callTool({ name: 'request_plan', arguments: { message: '' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/what you want to order/);
  });

  it('asking for a plan is capped at five a day per account: the sixth is a 429 saying when to try again', async () => {
    const account = await h.service.seedAccount();
    for (let i = 0; i < 5; i += 1)
      expect((await postJson(h.service, '/v1/catalogue/requests', { message: `Ask ${i}` }, { key: account.key })).status).toBe(200);
    const sixth = await postJson(h.service, '/v1/catalogue/requests', { message: 'Ask 6' }, { key: account.key });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.body.retry_after)).toBeGreaterThan(3600);
  });

  it('saving a declining card leaves the past-due invoice open with a reason; pay now is then a 402', async () => {
    const before = await billing(h);
    expect(before.past_due_invoices).toHaveLength(1);
    const due = before.past_due_invoices[0];
    expect(due.lines[0]).toMatchObject({ quantity: expect.any(Number), amount: expect.any(Number) });
    expect(due.domains.length).toBeGreaterThan(0);
    expect(due.hosted_invoice_url).toBeNull();
    await saveCardThroughSandboxPage(h.service, '4000 0000 0000 0341');
    const after = await billing(h);
    expect(after.past_due_invoices).toHaveLength(1);
    expect(after.past_due_invoices[0].last_payment_error).toMatch(/declined/);
    const pay = await postJson(h.service, '/v1/portal/billing/pay', {});
    expect(pay.status).toBe(402);
    expect(pay.body.code).toBe('card_declined');
  });

  it('saving a good card pays the open past-due invoice at once (before the person lands on success_url), and a receipt goes out', async () => {
    const owed = (await billing(h)).past_due_amount;
    expect(owed).toBeGreaterThan(0);
    const number = (await billing(h)).past_due_invoices[0].number as string;
    const recipients = await postJson(h.service, '/v1/alerts/recipients', { emails: ['books@agency.example'] }, { method: 'PUT' });
    expect(recipients.status).toBe(200);
    await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
    const after = await billing(h);
    expect(after.past_due_amount).toBe(0);
    expect(after.invoices.filter((i: { status: string }) => i.status === 'open')).toEqual([]);
    const paid = await postJson(h.service, '/v1/portal/billing/pay', {});
    expect(paid.status).toBe(409);
    expect(paid.body.code).toBe('nothing_to_pay');
    // The receipt: amount, domains and a link, e-mailed through the jobs.
    const receipt = await waitFor('the receipt e-mail', () => mailsTo('books@agency.example').find((m) => m.includes(`Receipt: invoice ${number} is paid`)));
    expect(receipt).toContain(`${(owed / 100).toFixed(2)} USD charged`);
    expect(receipt).toMatch(/Domains \(\d+\): [a-z0-9.-]+\.com/);
    expect(receipt).toContain('/portal/billing');
  });

  it('the order e-mail carries the amount charged, the domains and a link', async () => {
    const domain = FREE_DOMAINS[30]!;
    const placed = await postJson(h.service, '/v1/orders', orderBody([domain], 2), { headers: { 'idempotency-key': 'money-order-mail-1' } });
    expect(placed.status).toBe(200);
    const mail = await waitFor('the order e-mail', () => mailsTo('books@agency.example').find((m) => m.includes(`Order ${placed.body.reference} placed`)));
    expect(mail).toContain(`${(placed.body.charged.amount / 100).toFixed(2)} USD was charged`);
    expect(mail).toContain(`Domains (1): ${domain}.`);
    expect(mail).toContain('/portal/billing');
  });

  it('pay now pays the open invoice (MCP); without a card it is a 409 and an unknown number a 404 (REST)', async () => {
    const account = await h.service.seedAccount();
    const open = async () =>
      (
        await h.service.database.raw.query({
          text: "select count(*)::int as n from invoices where account_id = $1 and status = 'open'",
          values: [account.accountId],
        })
      ).rows[0]?.n;
    expect(await open()).toBe(1);
    const missing = await postJson(h.service, '/v1/portal/billing/pay', { invoice_number: 'INV-NOPE' }, { key: account.key });
    expect(missing.status).toBe(404);
    // No card yet: the refusal says so.
    const noCard = await postJson(h.service, '/v1/portal/billing/pay', {}, { key: account.key });
    expect(noCard.status).toBe(409);
    expect(noCard.body.code).toBe('no_payment_method');
    // Declined card saved first, so nothing is paid by the save itself; then a good one through the store.
    await saveCardThroughSandboxPage(h.service, '4000 0000 0000 0341', account.key);
    expect(await open()).toBe(1);
    await h.service.database.raw.query({
      text: "update sandbox_cards set outcome = 'charge' where customer_id = $1",
      values: [`sbx_cus_${account.accountId}`],
    });
    const key = (await createApiKey(h.service.services.db, account.accountId, ['orders:place'])).key;
    const result = await (await mcpClient(h, key)).callTool({ name: 'pay_invoices', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toMatchObject({ paid_count: 1, currency: 'usd' });
    expect(await open()).toBe(0);
    const again = await (await mcpClient(h, key)).callTool({ name: 'pay_invoices', arguments: {} });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/Nothing is open/);
  });

  it('GraphQL billing with a session shows each invoice with its lines, amount, status and domains', async () => {
    const { cookie } = await signUpNew(h.service, 'reader@example.com');
    const { body } = await sessionGraphql(
      h.service,
      cookie,
      '{ billing { invoices { number status amountDue amountRemaining lines { description amount } domains hostedInvoiceUrl } } }',
    );
    expect(body.data.billing.invoices).toEqual([]);
    const pay = await sessionGraphql(h.service, cookie, 'mutation { payInvoices(input: {}) { paidCount } }');
    expect(pay.body.errors?.[0]?.extensions?.code).toBe('nothing_to_pay');
  });
});

describe('with Stripe (the local fake, through the official SDK)', () => {
  const WEBHOOK_SECRET = 'whsec_money_test_0123456789';
  let fake: FakeStripe;
  let h: OrderingHarness;
  beforeAll(async () => {
    fake = await startFakeStripe();
    fake.addPrice({ id: 'price_demo_google_unwarmed', unit_amount: 350 });
    h = await startOrderingService({
      env: { STRIPE_SECRET_KEY: fake.secretKey, STRIPE_API_BASE: fake.url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_TIMEOUT_MS: '1500' },
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  function webhook(type: string, object: unknown) {
    const payload = JSON.stringify({
      id: `evt_${Math.random().toString(36).slice(2)}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      api_version: Stripe.API_VERSION,
      livemode: false,
      data: { object },
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    return h.service.api('/webhooks/stripe', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
      body: payload,
    });
  }

  async function saveCardAtStripe(cardNumber: string): Promise<string> {
    const link = await postJson(h.service, '/v1/payment-method/setup-link', { success_url: 'https://example.com/s', cancel_url: 'https://example.com/c' });
    expect(link.status).toBe(200);
    const sessionId = String(link.body.url).split('/').pop();
    const session = await (
      await fetch(`${fake.url}/__test/checkout/sessions/${sessionId}/complete`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ card_number: cardNumber }),
      })
    ).json();
    expect((await webhook('checkout.session.completed', session)).status).toBe(200);
    return session.customer as string;
  }

  it('a card saved through Checkout pays the open Stripe invoice at once (invoices.pay), and billing links the hosted invoice', async () => {
    const customerId = await saveCardAtStripe('4000000000000341');
    // A renewal whose charge failed: open at Stripe, told to us by invoice.payment_failed.
    const invoice = await (
      await fetch(`${fake.url}/__test/invoices`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ customer: customerId, amount: 700 }),
      })
    ).json();
    expect((await webhook('invoice.payment_failed', invoice)).status).toBe(200);
    const open = (await billing(h)).invoices.find((i: { number: string }) => i.number === invoice.number);
    expect(open).toMatchObject({ status: 'open', past_due: true, amount_remaining: 700, hosted_invoice_url: invoice.hosted_invoice_url });

    // The declining card is still on file: pay now is a 402 and Stripe saw the attempt.
    const declined = await postJson(h.service, '/v1/portal/billing/pay', { invoice_number: invoice.number });
    expect(declined.status).toBe(402);

    const chargesBefore = fake.charges.length;
    await saveCardAtStripe('4242424242424242');
    const paid = (await billing(h)).invoices.find((i: { number: string }) => i.number === invoice.number);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 700, amount_remaining: 0 });
    const newCharges = fake.charges.slice(chargesBefore);
    expect(newCharges.filter((c) => c.invoice === invoice.id)).toHaveLength(1);
    // The seeded past-due invoice was never Stripe's: it stays open, and pay now says to write to us.
    const seeded = await postJson(h.service, '/v1/portal/billing/pay', {});
    expect(seeded.status).toBe(409);
    expect(seeded.body.code).toBe('not_payable_online');
  });
});
