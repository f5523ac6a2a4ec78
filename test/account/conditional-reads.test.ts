import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationTable } from '../../operations/operation-table.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';

/** Issue 23, item 5: ETag / If-None-Match on the account reads, and Idempotent-Replayed on a replayed placement. */
let h: OrderingHarness;
beforeAll(async () => {
  h = await startOrderingService({ rateLimits: { order: 1000, read: 1000 } });
});
afterAll(async () => {
  await h?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => h.service.api(path, { headers });

// Every account read that needs no argument, from the operation table.
const reads = operationTable.filter((r) => r.listener === 'api' && r.method === 'GET' && r.params.every((p) => !p.required));

describe('ETag and If-None-Match on the account reads', () => {
  it.each(reads.map((r) => [r.path, r] as const))('GET %s: an ETag, and a 304 without a body for the same If-None-Match', async (path) => {
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    await first.arrayBuffer();
    const again = await get(path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    expect(again.headers.get('x-ratelimit-remaining')).not.toBeNull();
  });

  it('a list of tags, the strong form of the weak tag, and * also match; another tag does not', async () => {
    const first = await get('/v1/portal/dashboard');
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    for (const ifNoneMatch of [`"nope", ${etag}`, etag.replace(/^W\//, ''), '*'])
      expect((await get('/v1/portal/dashboard', { 'if-none-match': ifNoneMatch })).status, ifNoneMatch).toBe(304);
    const other = await get('/v1/portal/dashboard', { 'if-none-match': 'W/"something-else"' });
    expect(other.status).toBe(200);
    expect((await other.json()).orders).toBeDefined();
  });

  it('a change makes a new ETag: the old one gets the whole answer again', async () => {
    const before = await get('/v1/portal/workspaces');
    const etag = before.headers.get('etag')!;
    await before.arrayBuffer();
    expect((await postJson(h.service, '/v1/portal/workspaces', { name: 'ETag folder' })).status).toBe(200);
    const after = await get('/v1/portal/workspaces', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(JSON.stringify(await after.json())).toContain('ETag folder');
  });

  it('the 304 still counts as a read, as the read ran', async () => {
    const { key } = await createApiKey(h.service.services.db, h.service.demo.accountId, ['read']);
    const first = await h.service.api('/v1/catalogue', { key });
    const etag = first.headers.get('etag')!;
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    await first.arrayBuffer();
    const again = await h.service.api('/v1/catalogue', { key, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
  });

  it('the public checks carry no ETag (they are live, never cached)', async () => {
    const response = await h.service.pub('/.platform/functions/check-dns?domain=example.com&type=MX');
    await response.arrayBuffer();
    expect(response.headers.get('etag')).toBeNull();
  });
});

describe('Idempotent-Replayed on a replayed placement', () => {
  it('the first POST /v1/orders has no such header; the retry with the same key says Idempotent-Replayed: true', async () => {
    await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
    const body = orderBody([FREE_DOMAINS[30]!], 1);
    const first = await postJson(h.service, '/v1/orders', body, { headers: { 'idempotency-key': 'etag-test-order-1' } });
    expect(first.status).toBe(200);
    expect(first.body.replayed).toBe(false);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await postJson(h.service, '/v1/orders', body, { headers: { 'idempotency-key': 'etag-test-order-1' } });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ order_id: first.body.order_id, replayed: true });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });
});
