import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { createContext } from '../../resolvers/context.js';
import { loadDocument } from '../../operations/operation-document.js';
import { createGraphqlServer, type Yoga } from '../../server/create-yoga.js';
import { startTestService, type TestService } from '../support/test-service.js';

// /graphql, REST and MCP execute with graphql-jit; these answers must be byte for byte what
// graphql-js gives: data, null bubbling, error messages, paths and extensions (masking included).
let service: TestService;
let writeOnlyKey: string;
const jit = createGraphqlServer({ graphiql: false });
const plain = createGraphqlServer({ graphiql: false, jit: false });
beforeAll(async () => {
  service = await startTestService({ env: { DNS_SERVERS: '127.0.0.1:9' } });
  writeOnlyKey = (await createApiKey(service.services.db, service.demo.accountId, ['write'])).key;
});
afterAll(async () => {
  await service?.close();
});

async function answer(yoga: Yoga, query: string, variables: Record<string, unknown>, key: string | null) {
  const appContext = createContext(service.services, { authorization: key ? `Bearer ${key}` : null, requestId: 'jit-test', clientAddress: '127.0.0.1' });
  const response = await yoga.fetch(
    'http://internal/graphql',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query, variables }),
    },
    { appContext },
  );
  return { status: response.status, body: (await response.json()) as unknown };
}

const reads = ['dashboard', 'orders', 'billing', 'workspaces', 'requests', 'referrals', 'catalogue', 'payment-method', 'analytics'];
const cases: { name: string; query: string; variables?: Record<string, unknown>; key: 'demo' | 'write' | null }[] = [
  ...reads.map((doc) => ({ name: `${doc} with a read key`, query: loadDocument(doc).source, key: 'demo' as const })),
  ...reads.map((doc) => ({ name: `${doc} without a key (scope-auth refusal, data null)`, query: loadDocument(doc).source, key: null })),
  { name: 'two read fields, a key without read', query: '{ dashboard { accountId } billing { monthToDateSpend } }', key: 'write' },
  { name: 'a field error in one alias next to a good one', query: '{ a: dashboard { accountId } b: analytics(period: "5y") { period } }', key: 'demo' },
  { name: 'a resolver refusal on a check (no domain)', query: loadDocument('check-dns').source, variables: {}, key: null },
  { name: 'a resolver refusal on a check (bad type)', query: loadDocument('check-dns').source, variables: { domain: 'example.com', type: 'NOPE' }, key: null },
  { name: 'a refused mutation (empty name)', query: loadDocument('create-workspace').source, variables: { input: { name: '' } }, key: 'demo' },
  { name: 'a body of the wrong shape (coercion)', query: loadDocument('create-workspace').source, variables: { input: { name: 5 } }, key: 'demo' },
  { name: 'an unknown field (coercion)', query: loadDocument('create-workspace').source, variables: { input: { name: 'x', price: 1 } }, key: 'demo' },
];

it.each(cases)('$name: the same answer with and without graphql-jit', async ({ query, variables = {}, key }) => {
  const k = key === 'demo' ? service.demo.key : key === 'write' ? writeOnlyKey : null;
  const compiled = await answer(jit, query, variables, k);
  const walked = await answer(plain, query, variables, k);
  expect(compiled).toEqual(walked);
});
