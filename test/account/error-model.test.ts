import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describeExpectedType } from '../../operations/describe-input-error.js';
import { startTestService, graphql, type TestService } from '../support/test-service.js';

let service: TestService;
let client: Client;
beforeAll(async () => {
  service = await startTestService({ rateLimits: { read: 100_000, change: 100_000, public: 100_000 } });
  client = new Client({ name: 'error-model-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${service.demo.key}` } } }),
  );
});
afterAll(async () => {
  await client?.close();
  await service?.close();
});

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await service.api(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
};
const order = (extra: Record<string, unknown> = {}) => ({
  sku: 'google-inbox-unwarmed',
  domains: [{ domain: 'error-model.com', mailboxes: [{ first_name: 'A', last_name: 'B', local_part: 'ab' }] }],
  ...extra,
});
const toolText = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.parse((result.content as { text: string }[])[0]!.text);
/** A type name of our schema as it would leak: OrderDomainInput, orderdomaininput, WorkspaceNameInput. */
const TYPE_NAME = /(?<![a-z])[a-z]+input\b|\b(String|Int|Boolean)!?\b/i;

describe('one class for input in the wrong shape (SPEC 7: 422 on the account API)', () => {
  it('an unknown field, a field of the wrong type and a missing field are each a 422; a price-like field is the 400 SPEC names', async () => {
    const unknown = await post('/v1/orders/preview', order({ colour: 'blue' }));
    const wrongType = await post('/v1/orders/preview', { sku: 'google-inbox-unwarmed', domains: 'x.com' });
    const missing = await post('/v1/orders/preview', { domains: [] });
    const priced = await post('/v1/orders/preview', order({ price: 1 }));
    expect([unknown.status, wrongType.status, missing.status, priced.status]).toEqual([422, 422, 422, 400]);
    expect([unknown.body.code, wrongType.body.code, missing.body.code, priced.body.code]).toEqual([
      'unknown_field',
      'invalid_field',
      'missing_field',
      'price_in_body',
    ]);
    for (const answer of [unknown, wrongType, missing, priced]) expect(answer.body.request_id).toBeTruthy();
  });

  it('a malformed or missing Idempotency-Key is the same class: 422', async () => {
    expect((await post('/v1/orders', order(), { 'idempotency-key': 'short' })).status).toBe(422);
    expect((await post('/v1/orders', order())).status).toBe(422);
  });

  it('422 sentences never name an internal type ("orderdomaininput expected"): they say what to send', async () => {
    const wrongList = await post('/v1/orders/preview', { sku: 'google-inbox-unwarmed', domains: 'x.com' });
    expect(wrongList.body.detail).not.toMatch(TYPE_NAME);
    // GraphQL reads a lone value as a one-item list, so the item's shape is what it names.
    expect(wrongList.body.detail).toMatch(/"domains".*(a list|an object)/);
    const wrongItem = await post('/v1/orders/preview', { sku: 'google-inbox-unwarmed', domains: ['x.com'] });
    expect(wrongItem.status).toBe(422);
    expect(wrongItem.body.detail).not.toMatch(TYPE_NAME);
    expect(wrongItem.body.detail).toMatch(/an object/);
    const wrongScalar = await post('/v1/portal/workspaces', { name: 5 });
    expect(wrongScalar.status).toBe(422);
    expect(wrongScalar.body.detail).not.toMatch(TYPE_NAME);
    expect(wrongScalar.body.detail).toMatch(/"name".*text/);
  });

  it('describeExpectedType words a GraphQL type for a caller', () => {
    expect(describeExpectedType('[OrderDomainInput!]!')).toBe('a list whose items are each an object with the documented fields');
    expect(describeExpectedType('Int!')).toBe('a whole number');
    expect(describeExpectedType('String')).toBe('text');
    expect(describeExpectedType('Sequencer')).toBe('one of the documented values');
  });
});

describe('each door names inputs as it takes them', () => {
  it('MCP: arguments, never query parameters or headers; an unknown argument is the same 422', async () => {
    const unknown = toolText(await client.callTool({ name: 'get_dashboard', arguments: { account_id: 1 } }));
    expect(unknown).toMatchObject({ status: 422, code: 'unknown_field' });
    expect(unknown.detail).toMatch(/argument/);
    const wrongType = toolText(await client.callTool({ name: 'get_deliverability', arguments: { period: 7 } }));
    expect(wrongType.detail).toMatch(/argument "period"/);
    const key = toolText(await client.callTool({ name: 'place_order', arguments: { ...order(), idempotency_key: 'no spaces allowed' } }));
    expect(key.status).toBe(422);
    expect(key.detail).toMatch(/"idempotency_key"/);
    for (const detail of [unknown.detail, wrongType.detail, key.detail]) expect(detail).not.toMatch(/query parameter|header/);
  });

  it('GraphQL: the Idempotency-Key is the idempotencyKey argument; a check\'s missing input is no "query parameter"', async () => {
    const placed: { body: { errors?: { message: string; extensions: { status: number } }[] } } = await graphql(
      service,
      'mutation($o: OrderInput!) { placeOrder(order: $o, idempotencyKey: "bad key") { orderId } }',
      { o: { sku: 'google-inbox-unwarmed', domains: [{ domain: 'error-model.com', mailboxes: [{ firstName: 'A', lastName: 'B', localPart: 'ab' }] }] } },
    );
    expect(placed.body.errors![0]!.extensions.status).toBe(422);
    expect(placed.body.errors![0]!.message).toMatch(/"idempotencyKey"/);
    expect(placed.body.errors![0]!.message).not.toMatch(/header/);
    const response = await service.pub('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ a: checkBlacklist(input: "") { __typename } }' }),
    });
    const text = JSON.stringify(await response.json());
    expect(text).not.toMatch(/query parameter/);
  });

  it('REST keeps its own words: the Idempotency-Key header', async () => {
    expect((await post('/v1/orders', order(), { 'idempotency-key': 'short' })).body.detail).toMatch(/Idempotency-Key header/);
  });
});

describe('a malformed IPv4 address says so', () => {
  it.each(['999.1.2.3', '192.168.1', '10.0.0.256', '1.2.3.4.5'])('check-blacklist input %s', async (input) => {
    const response = await service.pub(`/.platform/functions/check-blacklist?input=${input}`);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('invalid_ipv4');
    expect(body.detail).toMatch(/not a valid IPv4 address/);
    expect(body.request_id).toBeTruthy();
  });
});
