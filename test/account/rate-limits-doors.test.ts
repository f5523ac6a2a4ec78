import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { graphqlSpend } from '../../server/graphql-spend.js';
import { startTestService, type TestService } from '../support/test-service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ rateLimits: { public: 10_000 }, socketless: true });
});
afterAll(async () => {
  await service?.close();
});

const limits = (response: Response) => ({
  limit: response.headers.get('x-ratelimit-limit'),
  remaining: response.headers.get('x-ratelimit-remaining'),
  reset: Number(response.headers.get('x-ratelimit-reset')),
});

async function freshKey(change?: number) {
  const account = await service.seedAccount();
  if (change !== undefined) await service.services.db.updateTable('accounts').set({ change_per_minute: change }).where('id', '=', account.accountId).execute();
  return (await createApiKey(service.services.db, account.accountId, ['read', 'write', 'orders:place'])).key;
}

function gql(key: string | null, body: unknown) {
  return service.api('/graphql', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const aliasedCreates = (n: number) =>
  `mutation { ${Array.from({ length: n }, (_, i) => `w${i}: createWorkspace(input: { name: "Aliased ${i} ${Math.random()}" }) { workspaceId }`).join(' ')} }`;

describe('every answer of every door carries X-RateLimit-Limit, -Remaining and -Reset', () => {
  it("REST: a read, a change, a 405 (nothing spent) and a 401 (the address's public allowance, nothing spent)", async () => {
    const key = await freshKey();
    const read = await service.api('/v1/portal/orders', { key });
    expect(limits(read)).toMatchObject({ limit: '240', remaining: '239' });
    expect(limits(read).reset).toBeGreaterThan(0);
    const change = await service.api('/v1/portal/workspaces', {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Door policy' }),
    });
    expect(change.status).toBe(200);
    expect(limits(change)).toMatchObject({ limit: '60', remaining: '59' });
    const wrong = await service.api('/v1/portal/orders', { key, method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(limits(wrong)).toMatchObject({ limit: '240', remaining: '239' });
    const keyless = await service.api('/v1/portal/orders', { key: null });
    expect(keyless.status).toBe(401);
    expect(keyless.headers.get('x-ratelimit-limit')).toBe('10000');
  });

  it("/graphql: a query, GraphiQL's page and the public listener", async () => {
    const key = await freshKey();
    const query = await gql(key, { query: '{ paymentMethod { onFile } }' });
    expect(limits(query)).toMatchObject({ limit: '240', remaining: '239' });
    const page = await service.api('/graphql', { key, headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(limits(page)).toMatchObject({ limit: '240', remaining: '239' });
    const pub = await service.pub('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(pub.headers.get('x-ratelimit-limit')).toBe('10000');
    expect(pub.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  });
});

describe('/graphql counts per operation, as REST does', () => {
  it('40 aliased createWorkspace cost 40 changes, not one read', async () => {
    const key = await freshKey();
    const response = await gql(key, { query: aliasedCreates(40) });
    expect(response.status).toBe(200);
    expect(limits(response)).toMatchObject({ limit: '60', remaining: '20' });
  });

  it('a mutation larger than what is left is refused whole with 429: nothing is written', async () => {
    const key = await freshKey(10);
    const before = await service.api('/v1/portal/workspaces', { key });
    const count = (await before.json()).workspaces.length;
    const response = await gql(key, { query: aliasedCreates(11) });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    const body = await response.json();
    expect(body.detail).toMatch(/10 per minute/);
    expect(body.request_id).toBeTruthy();
    expect((await (await service.api('/v1/portal/workspaces', { key })).json()).workspaces.length).toBe(count);
  });

  it("a key refused by REST's changing limit cannot write through /graphql", async () => {
    const key = await freshKey(1);
    const create = () =>
      service.api('/v1/portal/workspaces', {
        key,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `W ${Math.random()}` }),
      });
    expect((await create()).status).toBe(200);
    expect((await create()).status).toBe(429);
    const viaGraphql = await gql(key, { query: aliasedCreates(1) });
    expect(viaGraphql.status).toBe(429);
  });

  it('each operation of a batch counts as one read', async () => {
    const key = await freshKey();
    const batch = await gql(key, [
      { query: '{ paymentMethod { onFile } }' },
      { query: '{ paymentMethod { onFile } }' },
      { query: '{ a: paymentMethod { onFile } b: paymentMethod { onFile } }' },
    ]);
    expect(batch.status).toBe(200);
    expect(limits(batch).remaining).toBe('237');
  });
});

describe('graphqlSpend', () => {
  const classes = new Map([
    ['previewOrder', 'change' as const],
    ['placeOrder', 'order' as const],
  ]);
  it('reads once per query, changes per mutation root field through fragments, previewOrder as a change', () => {
    expect(graphqlSpend([{ query: '{ a: x b: x c: x }' }], classes)).toEqual({ read: 1, change: 0 });
    expect(graphqlSpend([{ query: 'mutation { a: m b: m ...F ... on Mutation { c: m } } fragment F on Mutation { d: m }' }], classes)).toEqual({
      read: 0,
      change: 4,
    });
    expect(graphqlSpend([{ query: '{ p1: previewOrder p2: previewOrder dashboard }' }], classes)).toEqual({ read: 1, change: 2 });
    expect(graphqlSpend([{ query: 'mutation { placeOrder __typename }' }], classes)).toEqual({ read: 0, change: 1 });
    expect(graphqlSpend([{ query: 'query A { x } mutation B { m n }', operationName: 'B' }], classes)).toEqual({ read: 0, change: 2 });
    expect(graphqlSpend([{ query: '{ broken' }, {}], classes)).toEqual({ read: 2, change: 0 });
  });
});
