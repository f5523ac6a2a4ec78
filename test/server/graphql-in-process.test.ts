import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { handleGraphql } from '../../server/graphql-door.js';
import { createGraphqlServer, type Yoga } from '../../server/create-yoga.js';
import { loadDocument } from '../../operations/operation-document.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';

/**
 * /graphql answers every request through yoga's HTTP handling; one JSON operation is handed to yoga
 * with the parameters the door read and answered from its result (server/graphql-http-plugin.ts),
 * everything else parsed by yoga from the body. Each request below is answered both ways by the
 * same door, schema and database, and the two answers must be the same: status, headers and body,
 * byte for byte (only the allowance left, which the first call spent, may differ).
 */
let service: TestService;
let publicYoga: Yoga;
let readOnlyKey: string;
beforeAll(async () => {
  service = await startTestService({ rateLimits: { read: 1_000_000, change: 1_000_000, public: 1_000_000 } });
  publicYoga = createGraphqlServer({ graphiql: true, audience: 'public' });
  readOnlyKey = (await createApiKey(service.services.db, service.demo.accountId, ['read'])).key;
});
afterAll(async () => {
  await service?.close();
});

interface Sent {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly query?: string;
  readonly listener?: 'api' | 'public';
  /** The demo key when absent; 'read-only': a key with the read scope only. */
  readonly key?: 'read-only' | null;
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Headers that count what the first call spent: the second call sees one fewer left. */
const SPENT = new Set(['x-ratelimit-remaining', 'x-ratelimit-reset']);

async function answer(sent: Sent, readByDoor: boolean): Promise<Answer> {
  const listener = sent.listener ?? 'api';
  const base = listener === 'api' ? service.apiUrl : service.publicUrl;
  const headers = new Headers(sent.headers);
  const key = sent.key === undefined ? service.demo.key : sent.key === 'read-only' ? readOnlyKey : null;
  if (key && listener === 'api') headers.set('authorization', `Bearer ${key}`);
  const request = new Request(`${base}/graphql${sent.query ?? ''}`, {
    method: sent.method ?? 'POST',
    headers,
    ...(sent.body === undefined ? {} : { body: sent.body }),
  });
  const yoga = listener === 'api' ? watched(service.yoga) : publicYoga;
  const response = await handleGraphql(yoga, service.services, request, { requestId: 'same-request-id', clientAddress: '127.0.0.1' }, { readByDoor });
  const out: Record<string, string> = {};
  // Yoga's own Headers keep a name's case as written ("Content-Type"); HTTP reads names in any case.
  response.headers.forEach((value, name) => {
    if (!SPENT.has(name.toLowerCase())) out[name.toLowerCase()] = value;
  });
  return { status: response.status, headers: out, body: await response.text() };
}

/** Which of yoga's doors the account listener's requests went through: its HTTP handling or its params handling. */
const used = { fetch: 0, getResultForParams: 0 };
const watched = (yoga: Yoga): Yoga =>
  new Proxy(yoga, {
    get(target, name, receiver) {
      if (name === 'fetch' || name === 'getResultForParams') used[name] += 1;
      return Reflect.get(target, name, receiver);
    },
  });

const json = (body: unknown, headers: Record<string, string> = {}): Sent => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const dashboard = loadDocument('dashboard');
const deep = `{ __schema { types { fields { type ${'{ ofType '.repeat(9)}{ name }${' }'.repeat(9)} } } } }`;
const aliases = `{ ${Array.from({ length: 45 }, (_, i) => `a${i}: __typename`).join(' ')} }`;

const CASES: Record<string, Sent> = {
  'the dashboard, no Accept': json({ query: dashboard.source, operationName: dashboard.operationName }),
  'the dashboard, Accept application/json': json({ query: dashboard.source }, { accept: 'application/json' }),
  'the dashboard, Accept graphql-response+json': json({ query: dashboard.source }, { accept: 'application/graphql-response+json' }),
  "the checks page's Accept": json({ query: '{ __typename }' }, { accept: 'application/graphql-response+json, application/json' }),
  'Accept */* and a charset': json({ query: '{ __typename }' }, { accept: 'text/html, */*;q=0.8', 'content-type': 'application/json; charset=utf-8' }),
  'application/graphql+json': { headers: { 'content-type': 'application/graphql+json' }, body: JSON.stringify({ query: '{ __typename }' }) },
  'null parameters and extensions': json({ query: '{ __typename }', variables: null, operationName: null, extensions: { any: 1 }, other: null }),
  'a syntax error': json({ query: '{ dashboard { ' }),
  'a syntax error, graphql-response+json': json({ query: '{ dashboard { ' }, { accept: 'application/graphql-response+json' }),
  'an unknown field': json({ query: '{ dashboard { nope } }' }),
  'an unknown field, graphql-response+json': json({ query: '{ nope }' }, { accept: 'application/graphql-response+json' }),
  'a variable of the wrong type': json({ query: 'query($p: AnalyticsPeriod) { analytics(period: $p) { __typename } }', variables: { p: 7 } }),
  'a missing variable': json({ query: 'query($p: AnalyticsPeriod!) { analytics(period: $p) { __typename } }' }),
  "a resolver's refusal (422)": json({
    query: 'mutation($o: OrderInput!) { placeOrder(order: $o, idempotencyKey: "bad key") { orderId } }',
    variables: { o: { sku: 'google-inbox-unwarmed', domains: [{ domain: 'x.com', mailboxes: [{ firstName: 'A', lastName: 'B', localPart: 'ab' }] }] } },
  }),
  'no key (401)': { ...json({ query: '{ dashboard { domainCount } }' }), key: null },
  'a key without the scope (403)': { ...json({ query: 'mutation { createWorkspace(input: { name: "x" }) { __typename } }' }), key: 'read-only' },
  'a field refused beside one answered': json({ query: '{ dashboard { domainCount } apiKeys { keyId } }' }),
  'an unknown operation name': json({ query: '{ __typename }', operationName: 'Nope' }),
  'two operations and no name': json({ query: 'query A { __typename } query B { __typename }' }),
  'a mutation named among two': json({
    query: 'query A { __typename } mutation B { createWorkspace(input: { name: "" }) { __typename } }',
    operationName: 'B',
  }),
  'too deep': json({ query: deep }),
  'too many aliases': json({ query: aliases }),
  introspection: json({ query: '{ __schema { queryType { name } } }' }),
  'an empty query': json({ query: '' }),
  'a query that is a number': json({ query: 5 }),
  'no query': json({ variables: {} }),
  'an unexpected parameter': json({ query: '{ __typename }', foo: 1 }),
  'variables as a list': json({ query: '{ __typename }', variables: [1] }),
  'an operation name that is a number': json({ query: '{ __typename }', operationName: 5 }),
  'a body that is a list (a batch)': json([{ query: '{ __typename }' }, { query: '{ dashboard { domainCount } }' }]),
  'a body that is a string': json('{ __typename }'),
  'a body that is null': json(null),
  'a body that is not JSON': { headers: { 'content-type': 'application/json' }, body: '{"query": ' },
  'an empty body': { headers: { 'content-type': 'application/json' }, body: '' },
  'a GET': { method: 'GET', query: `?query=${encodeURIComponent('{ __typename }')}` },
  'a mutation by GET': { method: 'GET', query: `?query=${encodeURIComponent('mutation { createWorkspace(input: { name: "x" }) { __typename } }')}` },
  'Accept text/event-stream': json({ query: '{ __typename }' }, { accept: 'text/event-stream' }),
  'Accept multipart/mixed': json({ query: '{ __typename }' }, { accept: 'multipart/mixed' }),
  'Accept text/html only (406)': json({ query: '{ __typename }' }, { accept: 'text/html' }),
  'Accept JSON in another charset (406)': json({ query: '{ __typename }' }, { accept: 'application/json; charset=iso-8859-1' }),
  'text/plain (415)': { headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ query: '{ __typename }' }) },
  'application/graphql': { headers: { 'content-type': 'application/graphql' }, body: '{ __typename }' },
  'upper-case content type': { headers: { 'content-type': 'Application/JSON' }, body: JSON.stringify({ query: '{ __typename }' }) },
  "the portal's origin": json({ query: '{ __typename }' }, { origin: 'http://127.0.0.1:1' }),
  'another origin': json({ query: '{ __typename }' }, { origin: 'https://elsewhere.example' }),
  'the public listener: a check refused (400)': { ...json({ query: '{ checkSpf(domain: "ada@good.test") { status } }' }), listener: 'public' },
  'the public listener: a field not in its schema': { ...json({ query: '{ dashboard { domainCount } }' }), listener: 'public' },
  'the public listener: introspection': { ...json({ query: '{ __type(name: "Query") { fields { name } } }' }), listener: 'public' },
};

describe('/graphql with its parameters read by the door and parsed by yoga answers alike', () => {
  it("yoga's bodiless refusals of a media type carry a detail that says what to send", async () => {
    for (const [name, status, code] of [
      ['text/plain (415)', 415, 'unsupported_media_type'],
      ['Accept text/html only (406)', 406, 'not_acceptable'],
    ] as const) {
      const refused = await answer(CASES[name]!, true);
      expect(refused.status).toBe(status);
      expect(JSON.parse(refused.body)).toMatchObject({ code, detail: expect.stringMatching(/application\/json/) });
    }
  });

  it.each(Object.keys(CASES))('%s', async (name) => {
    const sent = CASES[name]!;
    const parsedByYoga = await answer(sent, false);
    const readByDoor = await answer(sent, true);
    expect(readByDoor).toEqual(parsedByYoga);
  });

  it('one path: every request, the dashboard with its data and a batch alike, goes through yoga.fetch', async () => {
    used.fetch = used.getResultForParams = 0;
    const ok = await answer(CASES['the dashboard, no Accept']!, true);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-length']).toBe(String(Buffer.byteLength(ok.body)));
    expect(JSON.parse(ok.body).data.dashboard.domainCount).toBeGreaterThan(0);
    expect((await answer(CASES['a key without the scope (403)']!, true)).status).toBe(403);
    expect((await answer(CASES["a resolver's refusal (422)"]!, true)).status).toBe(422);
    expect((await answer(CASES['a syntax error']!, true)).status).toBe(400);
    expect((await answer(CASES['a syntax error, graphql-response+json']!, true)).status).toBe(400);
    expect((await answer(CASES['no key (401)']!, true)).status).toBe(401);
    expect(used).toEqual({ fetch: 6, getResultForParams: 0 });
    expect((await answer(CASES['Accept text/html only (406)']!, true)).status).toBe(406);
    expect(JSON.parse((await answer(CASES['a body that is a list (a batch)']!, true)).body)).toHaveLength(2);
    expect(used).toEqual({ fetch: 8, getResultForParams: 0 });
  });
});
