import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestService, graphql, type TestService } from '../support/test-service.js';
import type { DemoAccount } from '../../admin/seed-demo.js';

/**
 * Cursor pagination (docs/api.md, "Pagination") on the lists that grow: orders, invoices, the
 * dashboard's domains, webhook deliveries, and the events and reports that had it. Every list is
 * paged to its end through REST, GraphQL's connection and MCP: each item once, in one stable order
 * (many items share a timestamp, others differ only in microseconds), has_more false on the last
 * page; bad limits and cursors, and another account's cursor, are refused with a detail.
 */
let service: TestService;
let mine: DemoAccount;
let theirs: DemoAccount;
let endpointId: number;
let theirEndpointId: number;

/** The same instant for many rows, and instants a microsecond apart (a JavaScript Date cannot tell them apart). */
const SAME = sql<Date>`'2026-11-20 10:00:00.123456+00'::timestamptz`;
const micro = (n: number) => sql<Date>`${`2026-11-19 10:00:00.1230${String(n).padStart(2, '0')}+00`}::timestamptz`;

async function addRows(account: DemoAccount, tag: string): Promise<number> {
  const db = service.services.db;
  const plan = await db.selectFrom('plans').select('id').where('account_id', '=', account.accountId).executeTakeFirstOrThrow();
  for (let i = 0; i < 14; i++) {
    const order = await db
      .insertInto('orders')
      .values({
        account_id: account.accountId,
        plan_id: plan.id,
        reference: `ORD-${tag}-${i}`,
        subscription_id: `sub_${tag}_${i}`,
        status: 'active',
        quantity: 1,
        unit_amount: 1000,
        currency: 'usd',
        interval: 'month',
        sequencer: null,
        processor_subscription_id: null,
        first_invoice: null,
        promotion_code_id: null,
        processor_event_created: null,
        created_at: i < 8 ? SAME : micro(i),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let j = 0; j < 2; j++)
      await db
        .insertInto('domains')
        .values({
          account_id: account.accountId,
          order_id: order.id,
          workspace_id: null,
          domain: `${tag}-${i}-${j}.pages.example`,
          build_state: 'queued',
          forward_to: null,
          watched_since: null,
        })
        .execute();
    await db
      .insertInto('invoices')
      .values({
        account_id: account.accountId,
        order_id: order.id,
        number: `INV-${tag}-${i}`,
        status: 'paid',
        amount_due: 1000,
        amount_paid: 1000,
        currency: 'usd',
        issued_at: i < 8 ? SAME : micro(i),
        due_at: new Date('2026-11-20T10:00:00Z'),
        paid_at: new Date('2026-11-20T10:00:00Z'),
        processor_invoice_id: null,
      })
      .execute();
  }
  const endpoint = await db
    .insertInto('webhook_endpoints')
    .values({ account_id: account.accountId, url: 'https://hooks.example/in', secret: 'whsec_test', events: '*', description: null, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < 23; i++) {
    const eventId = `evt_${tag}_${i}`;
    await db
      .insertInto('events')
      .values({ id: eventId, account_id: account.accountId, type: 'domain.live', data: '{}', created_at: i < 12 ? SAME : micro(i) })
      .execute();
    await db
      .insertInto('webhook_deliveries')
      .values({ endpoint_id: endpoint.id, event_id: eventId, status: 'delivered', next_attempt_at: null, delivered_at: new Date(), created_at: SAME })
      .execute();
  }
  const domain = await db.selectFrom('domains').select(['id', 'domain']).where('account_id', '=', account.accountId).executeTakeFirstOrThrow();
  for (let i = 0; i < 23; i++)
    await db
      .insertInto('reports')
      .values({
        kind: 'dmarc',
        account_id: account.accountId,
        domain_id: domain.id,
        domain: domain.domain,
        org_name: 'pages.example',
        org_email: null,
        report_id: `r-${tag}-${i}`,
        schema_version: null,
        begin_at: new Date('2026-11-18T00:00:00Z'),
        end_at: new Date('2026-11-19T00:00:00Z'),
        policy: null,
        messages: 10,
        messages_passed: 9,
        records: 1,
        skipped_records: 0,
        received_via: 'upload',
        received_at: SAME,
      })
      .execute();
  return endpoint.id;
}

beforeAll(async () => {
  service = await startTestService({ socketless: true, rateLimits: { read: 10_000 } });
  mine = await service.seedAccount();
  theirs = await service.seedAccount();
  endpointId = await addRows(mine, `m${mine.accountId}`);
  theirEndpointId = await addRows(theirs, `t${theirs.accountId}`);
}, 120_000);
afterAll(async () => {
  await service?.close();
});

interface ListCase {
  readonly name: string;
  readonly path: () => string;
  readonly tool: string;
  readonly toolArgs: () => Record<string, unknown>;
  /** The ids of a REST (or MCP) answer, in its order. */
  readonly ids: (body: any) => string[];
  /** A GraphQL query taking $first and $after, and where its connection is in the answer. */
  readonly query: () => string;
  readonly connection: (data: any) => any;
  /** Every id of the list, in the documented order, from the database. */
  readonly expected: (accountId: number) => Promise<string[]>;
  /** A valid cursor of the other account's list. */
  readonly foreignCursor: () => Promise<string>;
  /** The fields a REST answer keeps besides the list (clients read them). */
  readonly kept: readonly string[];
  /** Items on a page when limit is left out. */
  readonly defaultLimit: number;
}

const db = () => service.services.db;

const cases: readonly ListCase[] = [
  {
    name: 'orders',
    path: () => '/v1/portal/orders',
    tool: 'list_orders',
    toolArgs: () => ({}),
    ids: (body) => body.orders.map((o: any) => String(o.order_id)),
    query: () =>
      'query($first: Int, $after: String) { c: ordersConnection(first: $first, after: $after) { edges { cursor node { orderId } } pageInfo { hasNextPage endCursor } } }',
    connection: (data) => data.c,
    expected: async (accountId) =>
      (await db().selectFrom('orders').select('id').where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute()).map(
        (r) => String(r.id),
      ),
    foreignCursor: async () => String((await db().selectFrom('orders').select('id').where('account_id', '=', theirs.accountId).executeTakeFirstOrThrow()).id),
    kept: ['orders'],
    defaultLimit: 10,
  },
  {
    name: 'invoices',
    path: () => '/v1/portal/billing',
    tool: 'get_billing',
    toolArgs: () => ({}),
    ids: (body) => body.invoices.map((i: any) => i.number),
    query: () =>
      'query($first: Int, $after: String) { billing { c: invoicesConnection(first: $first, after: $after) { edges { cursor node { number } } pageInfo { hasNextPage endCursor } } } }',
    connection: (data) => data.billing.c,
    expected: async (accountId) =>
      (await db().selectFrom('invoices').select('number').where('account_id', '=', accountId).orderBy('issued_at', 'desc').orderBy('id', 'desc').execute()).map(
        (r) => r.number,
      ),
    foreignCursor: async () => `INV-t${theirs.accountId}-3`,
    kept: ['currency', 'month_to_date_spend', 'past_due_amount', 'past_due_invoices', 'next_charge', 'invoices'],
    defaultLimit: 10,
  },
  {
    name: "the dashboard's domains",
    path: () => '/v1/portal/dashboard',
    tool: 'get_dashboard',
    toolArgs: () => ({}),
    ids: (body) => body.orders.flatMap((o: any) => o.domains.map((d: any) => d.domain)),
    query: () =>
      'query($first: Int, $after: String) { dashboard { c: domainsConnection(first: $first, after: $after) { edges { cursor node { domain } } pageInfo { hasNextPage endCursor } } } }',
    connection: (data) => data.dashboard.c,
    expected: async (accountId) =>
      (
        await db()
          .selectFrom('domains')
          .innerJoin('orders', 'orders.id', 'domains.order_id')
          .select('domains.domain')
          .where('domains.account_id', '=', accountId)
          .orderBy('orders.created_at', 'desc')
          .orderBy('orders.id', 'desc')
          .orderBy('domains.domain')
          .execute()
      ).map((r) => r.domain),
    foreignCursor: async () => `t${theirs.accountId}-2-1.pages.example`,
    kept: ['account_id', 'account_name', 'order_count', 'domain_count', 'mailbox_count', 'orders'],
    defaultLimit: 10,
  },
  {
    name: 'webhook deliveries',
    path: () => `/v1/webhooks/${endpointId}/deliveries`,
    tool: 'list_webhook_deliveries',
    toolArgs: () => ({ webhook_id: endpointId }),
    ids: (body) => body.webhook_deliveries.map((d: any) => String(d.delivery_id)),
    query: () =>
      `query($first: Int, $after: String) { c: webhookDeliveriesConnection(webhookId: ${endpointId}, first: $first, after: $after) { edges { cursor node { deliveryId } } pageInfo { hasNextPage endCursor } } }`,
    connection: (data) => data.c,
    expected: async () =>
      (await db().selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId).orderBy('id', 'desc').execute()).map((r) => String(r.id)),
    foreignCursor: async () =>
      String((await db().selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', theirEndpointId).executeTakeFirstOrThrow()).id),
    kept: ['webhook_deliveries'],
    defaultLimit: 10,
  },
  {
    name: 'events',
    path: () => '/v1/events',
    tool: 'list_events',
    toolArgs: () => ({}),
    ids: (body) => body.data.map((e: any) => e.id),
    query: () =>
      'query($first: Int, $after: String) { c: eventsConnection(first: $first, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }',
    connection: (data) => data.c,
    expected: async (accountId) =>
      (
        await db()
          .selectFrom('events')
          .select('id')
          .where('account_id', '=', accountId)
          .where('created_at', '>=', new Date(Date.now() - 30 * 86_400_000))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute()
      ).map((r) => r.id),
    foreignCursor: async () => `evt_t${theirs.accountId}_4`,
    kept: ['data'],
    defaultLimit: 10,
  },
  {
    name: 'reports',
    path: () => '/v1/portal/reports',
    tool: 'list_reports',
    toolArgs: () => ({}),
    ids: (body) => body.data.map((r: any) => String(r.id)),
    query: () =>
      'query($first: Int, $after: String) { c: reportsConnection(first: $first, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }',
    connection: (data) => data.c,
    expected: async (accountId) =>
      (await db().selectFrom('reports').select('id').where('account_id', '=', accountId).orderBy('id', 'desc').execute()).map((r) => String(r.id)),
    foreignCursor: async () => String((await db().selectFrom('reports').select('id').where('account_id', '=', theirs.accountId).executeTakeFirstOrThrow()).id),
    kept: ['data'],
    defaultLimit: 20,
  },
];

async function rest(path: string, key: string = mine.key) {
  const response = await service.api(path, { key });
  return { status: response.status, body: await response.json() };
}

async function callTool(name: string, args: Record<string, unknown>) {
  const response = await service.api('/mcp', {
    method: 'POST',
    key: mine.key,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const result = ((await response.json()) as { result: { isError?: boolean; content: { text: string }[]; structuredContent?: unknown } }).result;
  return { isError: result.isError ?? false, body: JSON.parse(result.content[0]!.text), structured: result.structuredContent };
}

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

describe.each(cases)('$name', (list) => {
  it('REST pages through every item once, in order, has_more false on the last page, the other fields kept', async () => {
    const expected = await list.expected(mine.accountId);
    expect(expected.length).toBeGreaterThan(14);
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let page = await rest(withQuery(list.path(), 'limit=7'));
    for (let i = 0; i < 20; i++) {
      expect(page.status).toBe(200);
      expect(Object.keys(page.body)).toEqual(expect.arrayContaining([...list.kept, 'has_more']));
      seen.push(...list.ids(page.body));
      hasMore.push(page.body.has_more);
      if (!page.body.has_more) break;
      page = await rest(withQuery(list.path(), `limit=7&starting_after=${encodeURIComponent(seen.at(-1)!)}`));
    }
    expect(seen).toEqual(expected);
    expect(hasMore).toEqual([...Array.from({ length: Math.ceil(expected.length / 7) - 1 }, () => true), false]);
    // The default page.
    const first = await rest(list.path());
    expect(list.ids(first.body)).toEqual(expected.slice(0, list.defaultLimit));
    expect(first.body.has_more).toBe(true);
    // Exactly the rest on one page: has_more false.
    const all = await rest(withQuery(list.path(), 'limit=100'));
    expect([list.ids(all.body), all.body.has_more]).toEqual([expected, false]);
  });

  it('GraphQL pages the connection with first and after: the same items, cursors and pageInfo', async () => {
    const expected = await list.expected(mine.accountId);
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i++) {
      const answer: { body: { data?: any; errors?: any[] } } = await graphql(service, list.query(), { first: 6, after }, mine.key);
      expect(answer.body.errors).toBeUndefined();
      const connection = list.connection(answer.body.data);
      const cursors = connection.edges.map((e: { cursor: string }) => e.cursor);
      expect(connection.pageInfo.endCursor).toBe(cursors.at(-1));
      seen.push(...cursors);
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);
  });

  it('MCP takes limit and starting_after and answers has_more', async () => {
    const expected = await list.expected(mine.accountId);
    const seen: string[] = [];
    let args: Record<string, unknown> = { ...list.toolArgs(), limit: 9 };
    for (let i = 0; i < 20; i++) {
      const result = await callTool(list.tool, args);
      expect(result.isError).toBe(false);
      expect(result.structured).toEqual(result.body);
      seen.push(...list.ids(result.body));
      if (!result.body.has_more) break;
      args = { ...list.toolArgs(), limit: 9, starting_after: seen.at(-1) };
    }
    expect(seen).toEqual(expected);
  });

  it('a bad limit or cursor, or one of another account, is refused saying what to change, on every door', async () => {
    const foreign = await list.foreignCursor();
    // A limit that is not a number is not in the expected shape: 422, as every typed query parameter of the account API (SPEC 7).
    for (const [query, status, detail] of [
      ['limit=0', 400, /"limit" is a whole number from 1 to 100, not 0/],
      ['limit=101', 400, /"limit" is a whole number from 1 to 100, not 101/],
      ['limit=ten', 422, /"limit" must be a whole number/],
      ['starting_after=nothing-of-yours', 400, /"starting_after" must be .* from a previous page of this list; "nothing-of-yours" is not one of yours/],
      [`starting_after=${encodeURIComponent(foreign)}`, 400, /is not one of yours/],
    ] as const) {
      const refused = await rest(withQuery(list.path(), query));
      expect([query, refused.status, refused.body.detail]).toEqual([query, status, expect.stringMatching(detail)]);
    }
    const tool = await callTool(list.tool, { ...list.toolArgs(), starting_after: foreign });
    expect([tool.isError, tool.body.status, tool.body.detail]).toEqual([true, 400, expect.stringMatching(/"starting_after" must be .* is not one of yours/)]);
    const gqlLimit = await graphql(service, list.query(), { first: 500 }, mine.key);
    expect(gqlLimit.body.errors?.[0]).toMatchObject({ message: '"first" is a whole number from 1 to 100, not 500.', extensions: { status: 400 } });
    const gqlCursor = await graphql(service, list.query(), { first: 5, after: foreign }, mine.key);
    expect(gqlCursor.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^"after" must be .* is not one of yours/),
      extensions: { status: 400 },
    });
  });
});

describe("the dashboard's pages", () => {
  it("an order whose domains span two pages is on both, each time with that page's domains; the counts are the account's", async () => {
    const rows = await db()
      .selectFrom('domains')
      .innerJoin('orders', 'orders.id', 'domains.order_id')
      .select(['domains.domain', 'domains.order_id'])
      .where('domains.account_id', '=', mine.accountId)
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc')
      .orderBy('domains.domain')
      .execute();
    // A page size that ends a page between two domains of one order.
    const limit = rows.findIndex((r, i) => i > 0 && rows[i - 1]!.order_id === r.order_id);
    expect(limit).toBeGreaterThan(0);
    const page1 = await rest(`/v1/portal/dashboard?limit=${limit}`);
    const page2 = await rest(`/v1/portal/dashboard?limit=${limit}&starting_after=${page1.body.orders.at(-1).domains.at(-1).domain}`);
    const split = rows[limit]!.order_id;
    expect([page1.body.orders.at(-1).order_id, page2.body.orders[0].order_id]).toEqual([split, split]);
    expect([page1.body.orders.at(-1).domains.map((d: any) => d.domain), page2.body.orders[0].domains.map((d: any) => d.domain)]).toEqual([
      [rows[limit - 1]!.domain],
      [rows[limit]!.domain],
    ]);
    for (const page of [page1, page2]) expect([page.body.order_count, page.body.domain_count]).toEqual([17, 33]);
  });

  it('the deprecated lists still answer in full', async () => {
    const answer = await graphql(service, '{ orders { orderId } dashboard { orders { domains { domain } } } billing { invoices { number } } }', {}, mine.key);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.orders).toHaveLength(17);
    expect(answer.body.data.dashboard.orders.flatMap((o: any) => o.domains)).toHaveLength(33);
    expect(answer.body.data.billing.invoices.length).toBe((await cases[1]!.expected(mine.accountId)).length);
  });
});

describe('MCP arguments', () => {
  it('starting_after may be sent as a number where the cursor is an id (the Inspector CLI sends 2, not "2")', async () => {
    const expected = await cases[0]!.expected(mine.accountId);
    const asNumber = await callTool('list_orders', { limit: 2, starting_after: Number(expected[0]) });
    const asText = await callTool('list_orders', { limit: 2, starting_after: expected[0] });
    expect(asNumber.isError).toBe(false);
    expect(asNumber.body).toEqual(asText.body);
    expect(cases[0]!.ids(asNumber.body)).toEqual(expected.slice(1, 3));
  });
});

describe('OpenAPI', () => {
  it('lists limit and starting_after on every paged path, and has_more in its answer', async () => {
    const document = await (await service.api('/openapi.json')).json();
    const paths = [
      '/v1/portal/orders',
      '/v1/portal/billing',
      '/v1/portal/dashboard',
      '/v1/webhooks/{webhook_id}/deliveries',
      '/v1/events',
      '/v1/portal/reports',
    ];
    const shown = paths.map((path) => {
      const get = document.paths[path].get;
      const ref: string = get.responses['200'].content['application/json'].schema.$ref;
      const answer = document.components.schemas[ref.replace('#/components/schemas/', '')];
      return {
        path,
        params: get.parameters.map((p: { name: string }) => p.name).filter((n: string) => n === 'limit' || n === 'starting_after'),
        hasMore: [answer.properties.has_more.type, answer.required.includes('has_more')],
      };
    });
    expect(shown).toEqual(paths.map((path) => ({ path, params: ['limit', 'starting_after'], hasMore: ['boolean', true] })));
  });
});
