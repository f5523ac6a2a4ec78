import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { waitFor } from '../support/wait-for.js';
import { operationTable, toolNameOf } from '../../operations/operation-table.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import type { Scope } from '../../resolvers/auth/scopes.js';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';

const READ_LIMIT = 100;
/** SPEC 4.2's account MCP tools and the scope each needs, with issue 12's domain verification and issue 13's webhook and alert-recipient tools, and issue 20's webhook testing, plan request and pay-now tools. */
const SPEC_TOOLS: Record<string, Scope> = {
  get_dashboard: 'read',
  list_orders: 'read',
  get_billing: 'read',
  get_deliverability: 'read',
  list_catalogue: 'read',
  check_payment_method: 'read',
  preview_order: 'read',
  create_card_setup_link: 'orders:place',
  place_order: 'orders:place',
  get_domain_verification: 'read',
  verify_domain: 'write',
  list_webhooks: 'write',
  create_webhook: 'write',
  update_webhook: 'write',
  delete_webhook: 'write',
  list_webhook_deliveries: 'write',
  send_test_webhook: 'write',
  resend_webhook_delivery: 'write',
  list_events: 'write',
  get_alert_recipients: 'read',
  set_alert_recipients: 'write',
  get_alert_settings: 'read',
  set_alert_settings: 'write',
  list_dns_connections: 'read',
  create_dns_connection: 'write',
  delete_dns_connection: 'write',
  request_plan: 'write',
  pay_invoices: 'orders:place',
  get_domain_setup: 'read',
  check_domain_setup: 'read',
  apply_domain_setup: 'write',
  list_domain_setup_applies: 'read',
  revert_domain_setup_apply: 'write',
  list_domain_mailboxes: 'read',
  reveal_mailbox_credentials: 'write',
  reset_mailbox_password: 'write',
  upload_report: 'write',
  list_reports: 'read',
  get_domain_sources: 'read',
  get_report_days: 'read',
};
// Every account row is a tool (test/mcp/mcp-parity.test.ts checks each against REST).
const accountRows = operationTable.filter((r) => r.listener === 'api');
const existing = new Set(accountRows.map(toolNameOf));
const toolsNeeding = (scope: Scope) =>
  accountRows
    .filter((r) => r.scope === scope)
    .map(toolNameOf)
    .sort();

let h: OrderingHarness;
const keys = {} as Record<'read' | 'write' | 'place' | 'all', string>;
const clients: Client[] = [];
beforeAll(async () => {
  h = await startOrderingService({ rateLimits: { order: 1000, read: READ_LIMIT } });
  const make = async (scopes: Scope[]) => (await createApiKey(h.service.services.db, h.service.demo.accountId, scopes)).key;
  keys.read = await make(['read']);
  keys.write = await make(['write']);
  keys.place = await make(['orders:place']);
  keys.all = await make(['read', 'write', 'orders:place']);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await h?.close();
});

/** `answered` holds each GET the client sent (its event stream), settled once the server answered it. */
async function connect(key: string, answered: Promise<unknown>[] = []): Promise<Client> {
  const client = new Client({ name: 'account-mcp-test', version: '1' });
  const recording: typeof fetch = (input, init) => {
    const response = fetch(input, init);
    if ((init?.method ?? 'GET') === 'GET') answered.push(response.catch(() => null));
    return response;
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } }, fetch: recording }),
  );
  clients.push(client);
  return client;
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const textOf = (result: ToolResult) => JSON.parse((result.content as { type: string; text: string }[])[0]!.text);

async function rest(path: string, key: string, init: RequestInit = {}) {
  const response = await h.service.api(path, { ...init, key });
  return { status: response.status, body: await response.json() };
}

describe("tools/list shows only what the key's scopes allow", () => {
  it("SPEC's tools exist as operation-table rows with the scope SPEC gives them", () => {
    for (const [tool, scope] of Object.entries(SPEC_TOOLS)) {
      expect(existing.has(tool), tool).toBe(true);
      expect(accountRows.find((r) => toolNameOf(r) === tool)!.scope, tool).toBe(scope);
    }
  });

  it('a read key lists exactly the read tools, and neither create_card_setup_link nor place_order', async () => {
    const { tools } = await (await connect(keys.read)).listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(toolsNeeding('read'));
    expect(names).not.toContain('place_order');
    expect(names).not.toContain('create_card_setup_link');
  });

  it('an orders:place key lists only the placing tools; a write-only key lists only the write tools (verify_domain, webhooks)', async () => {
    expect((await (await connect(keys.place)).listTools()).tools.map((t) => t.name).sort()).toEqual(toolsNeeding('orders:place'));
    expect((await (await connect(keys.write)).listTools()).tools.map((t) => t.name).sort()).toEqual(toolsNeeding('write'));
    expect(toolsNeeding('write')).toContain('create_webhook');
  });

  it('a key with every scope lists every account operation as a tool', async () => {
    const { tools } = await (await connect(keys.all)).listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...existing].sort());
  });

  it('input schemas are strict and complete: unknown fields refused, required fields named, described', async () => {
    const { tools } = await (await connect(keys.all)).listTools();
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties, tool.name).toBe(false);
      expect(tool.description, tool.name).toBeTruthy();
    }
    const preview = tools.find((t) => t.name === 'preview_order')!;
    expect(preview.inputSchema.required).toEqual(expect.arrayContaining(['sku', 'domains']));
    const domains = (
      preview.inputSchema.properties as Record<
        string,
        { type: string; items: { properties: Record<string, { items: { required: string[] } }>; required: string[] } }
      >
    ).domains!;
    expect(domains.type).toBe('array');
    expect(domains.items.required).toEqual(expect.arrayContaining(['domain', 'mailboxes']));
    expect(domains.items.properties.mailboxes!.items.required).toEqual(expect.arrayContaining(['first_name', 'last_name', 'local_part']));
    expect(JSON.stringify(preview.inputSchema)).not.toContain('$ref'); // self-contained for the model
    const place = tools.find((t) => t.name === 'place_order')!;
    expect(place.inputSchema.required).toEqual(expect.arrayContaining(['sku', 'domains', 'idempotency_key']));
    const period = (tools.find((t) => t.name === 'get_deliverability')!.inputSchema.properties as Record<string, { description?: string }>).period!;
    expect(period.description).toMatch(/7d/);
    const link = tools.find((t) => t.name === 'create_card_setup_link')!;
    // Both return addresses are optional: without them the person lands on the portal (docs/ordering.md).
    expect(Object.keys(link.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['success_url', 'cancel_url']));
    expect(link.inputSchema.required ?? []).not.toContain('success_url');
  });
});

describe('each read tool answers what its REST path answers', () => {
  const reads: [string, Record<string, unknown>, string][] = [
    ['get_dashboard', {}, '/v1/portal/dashboard'],
    ['list_orders', {}, '/v1/portal/orders'],
    ['get_billing', {}, '/v1/portal/billing'],
    ['get_deliverability', {}, '/v1/portal/analytics'],
    ['get_deliverability', { period: '30d' }, '/v1/portal/analytics?period=30d'],
    ['list_catalogue', {}, '/v1/catalogue'],
    ['check_payment_method', {}, '/v1/payment-method'],
  ];
  for (const [tool, args, path] of reads) {
    it(`${tool} ${JSON.stringify(args)} equals GET ${path}`, async () => {
      const client = await connect(keys.read);
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError).toBeFalsy();
      const expected = await rest(path, keys.read);
      expect(expected.status).toBe(200);
      expect(textOf(result)).toEqual(expected.body);
    });
  }

  it('preview_order equals POST /v1/orders/preview for the same order, and creates nothing', async () => {
    const body = orderBody([FREE_DOMAINS[20]!], 2);
    const result = await (await connect(keys.read)).callTool({ name: 'preview_order', arguments: body });
    expect(result.isError).toBeFalsy();
    const expected = await postJson(h.service, '/v1/orders/preview', body, { key: keys.read });
    expect(expected.status).toBe(200);
    expect(textOf(result)).toEqual(expected.body);
    expect(textOf(result).quantity).toBe(2);
  });

  it('a refused preview is an error result carrying the REST detail and problems', async () => {
    const body = orderBody(['taken-tenant.com'], 1);
    const result = await (await connect(keys.read)).callTool({ name: 'preview_order', arguments: body });
    const expected = await postJson(h.service, '/v1/orders/preview', body, { key: keys.read });
    expect(expected.status).toBeGreaterThanOrEqual(400);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatchObject({ detail: expected.body.detail, code: expected.body.code, status: expected.status });
  });
});

describe('refusals', () => {
  it('calling a tool the key lacks the scope for is refused, naming the scope', async () => {
    const client = await connect(keys.read);
    const place = await client.callTool({ name: 'place_order', arguments: { ...orderBody([FREE_DOMAINS[21]!], 1), idempotency_key: 'mcp-no-scope-1' } });
    expect(place.isError).toBe(true);
    expect(textOf(place).detail).toContain('orders:place');
    expect(textOf(place).status).toBe(403);
    const link = await client.callTool({
      name: 'create_card_setup_link',
      arguments: { success_url: 'https://example.com/s', cancel_url: 'https://example.com/c' },
    });
    expect(link.isError).toBe(true);
    expect(textOf(link).detail).toContain('orders:place');
    const placeKey = await connect(keys.place);
    const dashboard = await placeKey.callTool({ name: 'get_dashboard', arguments: {} });
    expect(dashboard.isError).toBe(true);
    expect(textOf(dashboard).detail).toContain('"read"');
  });

  it('a missing or unknown key is an HTTP 401 before any MCP exchange', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const authorization of [undefined, 'Bearer sk_live_not-a-real-key', 'Basic abc']) {
      const response = await fetch(`${h.service.apiUrl}/mcp`, {
        method: 'POST',
        headers: { ...headers, ...(authorization ? { authorization } : {}) },
        body: initialize,
      });
      expect(response.status, String(authorization)).toBe(401);
      const body = await response.json();
      expect(body.detail).toMatch(/Authorization: Bearer/);
      expect(body).not.toHaveProperty('jsonrpc');
    }
    await expect(connect('sk_live_not-a-real-key')).rejects.toThrow();
  });

  it('unknown arguments are refused, on a tool without a body and on one with a body', async () => {
    const client = await connect(keys.all);
    const dashboard = await client.callTool({ name: 'get_dashboard', arguments: { account_id: 1 } });
    expect(dashboard.isError).toBe(true);
    expect(textOf(dashboard).detail).toContain('account_id');
    const deliverability = await client.callTool({ name: 'get_deliverability', arguments: { period: '7d', domain: 'x.com' } });
    expect(deliverability.isError).toBe(true);
    const preview = await client.callTool({ name: 'preview_order', arguments: { ...orderBody([FREE_DOMAINS[22]!], 1), colour: 'blue' } });
    expect(preview.isError).toBe(true);
    expect(textOf(preview).detail).toContain('colour');
    const priced = await client.callTool({ name: 'preview_order', arguments: { ...orderBody([FREE_DOMAINS[22]!], 1), price: 1 } });
    expect(priced.isError).toBe(true);
    expect(textOf(priced).detail).toContain('price');
  });

  it('a tool that does not exist is an error result', async () => {
    const result = await (await connect(keys.all)).callTool({ name: 'delete_everything', arguments: {} });
    expect(result.isError).toBe(true);
  });

  it('a bad period is refused with the allowed values, as REST refuses it, in the words of MCP', async () => {
    const result = await (await connect(keys.read)).callTool({ name: 'get_deliverability', arguments: { period: '5y' } });
    const expected = await rest('/v1/portal/analytics?period=5y', keys.read);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatchObject({ code: expected.body.code, status: expected.status });
    expect(textOf(result).detail).toMatch(/7d/);
    expect(textOf(result).detail).not.toMatch(/query parameter/);
  });
});

describe('webhooks through MCP', () => {
  it('list_webhooks equals GET /v1/webhooks; create_webhook refuses a private address as REST does', async () => {
    const client = await connect(keys.write);
    const listed = await client.callTool({ name: 'list_webhooks', arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect(textOf(listed)).toEqual((await rest('/v1/webhooks', keys.write)).body);
    const refused = await client.callTool({ name: 'create_webhook', arguments: { url: 'https://127.0.0.1/hook', events: ['domain.live'] } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused).detail).toMatch(/127\.0\.0\.1|private|loopback/i);
  });
});

describe('placing through MCP', () => {
  it('place_order needs idempotency_key, and shares the key space with REST POST /v1/orders', async () => {
    await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
    const client = await connect(keys.all);
    const body = orderBody([FREE_DOMAINS[23]!], 1);
    const missing = await client.callTool({ name: 'place_order', arguments: body });
    expect(missing.isError).toBe(true);
    expect(textOf(missing).detail).toMatch(/"idempotency_key"/);
    expect(textOf(missing).detail).not.toMatch(/header/);
    expect((await client.callTool({ name: 'preview_order', arguments: body })).isError).toBeFalsy();
    const placed = await client.callTool({ name: 'place_order', arguments: { ...body, idempotency_key: 'mcp-order-0001' } });
    expect(placed.isError).toBeFalsy();
    expect(textOf(placed).replayed).toBe(false);
    const viaRest = await postJson(h.service, '/v1/orders', body, { key: keys.all, headers: { 'idempotency-key': 'mcp-order-0001' } });
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toMatchObject({ order_id: textOf(placed).order_id, replayed: true });
  });

  it('a malformed idempotency_key is refused with the format rule', async () => {
    const result = await (await connect(keys.all)).callTool({
      name: 'place_order',
      arguments: { ...orderBody([FREE_DOMAINS[24]!], 1), idempotency_key: 'no spaces allowed' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result).detail).toMatch(/8 to 64/);
  });
});

describe('the reading allowance', () => {
  const mcpPost = (key: string, body: unknown) =>
    fetch(`${h.service.apiUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });
  const remainingOf = (response: Response) => Number(response.headers.get('x-ratelimit-remaining'));
  const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

  it('every MCP answer carries X-RateLimit-Limit, -Remaining and -Reset; each message of a POST counts once', async () => {
    const { key } = await createApiKey(h.service.services.db, h.service.demo.accountId, ['read']);
    const first = await mcpPost(key, list(1));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(READ_LIMIT));
    expect(remainingOf(first)).toBe(READ_LIMIT - 1);
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    // A batch: two requests and a notification are three messages; the client's answer to a server
    // request (a result without a method) is not one.
    const batch = await mcpPost(key, [list(2), list(3), { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 'x', result: {} }]);
    await batch.arrayBuffer();
    expect(remainingOf(batch)).toBe(READ_LIMIT - 4);
  });

  it('the GET (event stream) and DELETE (session end) of a stateless server answer 405 and spend nothing', async () => {
    const { key } = await createApiKey(h.service.services.db, h.service.demo.accountId, ['read']);
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${h.service.apiUrl}/mcp`, { method, headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(remainingOf(response), method).toBe(READ_LIMIT);
      expect((await response.json()).detail).toMatch(/POST/);
    }
  });

  it('a client session spends exactly its messages: initialize, initialized, tools/list (its GET is not counted)', async () => {
    const { key } = await createApiKey(h.service.services.db, h.service.demo.accountId, ['read']);
    const gets: Promise<unknown>[] = [];
    const client = await connect(key, gets);
    await client.listTools();
    // The SDK opens its GET stream without waiting: wait for the server's answer to it (405), so it has
    // been counted or not before the allowance is read.
    await waitFor("the client's GET answered", () => gets.length > 0);
    await Promise.all(gets);
    const after = await mcpPost(key, list(1));
    await after.arrayBuffer();
    expect(remainingOf(after)).toBe(READ_LIMIT - 4);
  });

  it('past the allowance (here lowered from 240) a POST is 429 with Retry-After before any exchange', async () => {
    const { key } = await createApiKey(h.service.services.db, h.service.demo.accountId, ['read']);
    const spent = await mcpPost(
      key,
      Array.from({ length: READ_LIMIT - 1 }, (_, i) => list(i)),
    );
    await spent.arrayBuffer();
    expect(remainingOf(spent)).toBe(1);
    const last = await mcpPost(key, list(1));
    expect(last.status).toBe(200);
    await last.arrayBuffer();
    const response = await mcpPost(key, list(9));
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(response.headers.get('x-ratelimit-limit')).toBe(String(READ_LIMIT));
    expect((await response.json()).request_id).toBeTruthy();
  });

  it('a changing tool spends the changing allowance too, so a key refused by REST cannot change through MCP', async () => {
    const mine = await h.service.seedAccount();
    await h.service.services.db.updateTable('accounts').set({ change_per_minute: 1 }).where('id', '=', mine.accountId).execute();
    const { key } = await createApiKey(h.service.services.db, mine.accountId, ['read']);
    const body = orderBody([FREE_DOMAINS[25]!], 1);
    expect((await postJson(h.service, '/v1/orders/preview', body, { key })).status).not.toBe(429);
    const refusedRest = await postJson(h.service, '/v1/orders/preview', body, { key });
    expect(refusedRest.status).toBe(429);
    const result = await (await connect(key)).callTool({ name: 'preview_order', arguments: body });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatchObject({ status: 429, code: 'rate_limited' });
  });
});
