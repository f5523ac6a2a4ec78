import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { graphql, startTestService, type TestService } from '../support/test-service.js';

/** /v1/webhooks: CRUD with scope write, the SSRF rule on endpoints, and the same through GraphQL. */
let service: TestService;
const send = async (method: string, path: string, body?: unknown, key?: string) => {
  const response = await service.api(path, {
    method,
    ...(key && { key }),
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};

beforeAll(async () => {
  service = await startTestService({ socketless: true });
});
afterAll(async () => {
  await service?.close();
});

describe('webhook endpoints', () => {
  it('refuses endpoints this service must not post to, each with a sentence', async () => {
    for (const url of ['https://127.0.0.1/hooks', 'https://10.1.2.3/hooks', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://192.0.2.7/hooks']) {
      const refused = await send('POST', '/v1/webhooks', { url });
      expect(refused.status, url).toBe(422);
      expect(refused.body).toMatchObject({ code: 'endpoint_refused', detail: expect.stringMatching(/not a public address/) });
    }
    const plain = await send('POST', '/v1/webhooks', { url: 'http://93.184.215.14/hooks' });
    expect(plain.body).toMatchObject({ code: 'endpoint_refused', detail: expect.stringMatching(/https:\/\//) });
    const unknown = await send('POST', '/v1/webhooks', { url: 'https://93.184.215.14/hooks', events: ['domain.exploded'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/domain\.live/);
  });

  it('refuses any port but 443, and holds the 10-endpoint cap against 50 parallel creates', async () => {
    for (const url of ['https://93.184.215.14:22/hooks', 'https://93.184.215.14:8443/hooks']) {
      const refused = await send('POST', '/v1/webhooks', { url });
      expect(refused.status, url).toBe(422);
      expect(refused.body).toMatchObject({ code: 'endpoint_refused', detail: expect.stringMatching(/port 443/) });
    }
    const other = await service.seedAccount();
    expect((await send('POST', '/v1/webhooks', { url: 'https://93.184.215.14:443/hooks' }, other.key)).body.url).toBe('https://93.184.215.14/hooks');
    const account = await service.seedAccount();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => send('POST', '/v1/webhooks', { url: `https://93.184.215.14/race-${i}` }, account.key)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r.body).toMatchObject({ code: 'too_many_webhooks', detail: expect.stringMatching(/delete one/) });
    expect((await send('GET', '/v1/webhooks', undefined, account.key)).body).toHaveLength(10);
  });

  it('create shows the secret once; list, update, deliveries and delete follow', async () => {
    const created = await send('POST', '/v1/webhooks', { url: 'https://93.184.215.14/hooks', events: ['domain.live', 'domain.listed'], description: 'ops' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      webhook_id: expect.any(Number),
      events: ['domain.live', 'domain.listed'],
      secret: expect.stringMatching(/^whsec_[0-9a-f]{48}$/),
    });
    const id = created.body.webhook_id;
    const listed = await send('GET', '/v1/webhooks');
    expect(listed.body).toEqual([expect.objectContaining({ webhook_id: id, url: 'https://93.184.215.14/hooks' })]);
    expect(listed.body[0]).not.toHaveProperty('secret');
    const updated = await send('PUT', `/v1/webhooks/${id}`, { events: ['*'] });
    expect(updated.body).toMatchObject({ webhook_id: id, events: ['*'], description: 'ops' });
    expect((await send('GET', `/v1/webhooks/${id}/deliveries`)).body).toEqual({ webhook_deliveries: [], has_more: false });
    expect((await send('DELETE', `/v1/webhooks/${id}`)).body).toEqual({ webhook_id: id, deleted: true });
    const gone = await send('GET', `/v1/webhooks/${id}/deliveries`);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toMatch(/GET \/v1\/webhooks/);
  });

  it('needs scope write: a read key is refused', async () => {
    const { key } = await createApiKey(service.services.db, service.demo.accountId, ['read']);
    const refused = await send('GET', '/v1/webhooks', undefined, key);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBeTruthy();
  });

  it('GraphQL has the same endpoints', async () => {
    const made = await graphql(service, 'mutation { createWebhook(input: {url: "https://93.184.215.14/g"}) { webhookId events secret } }');
    expect(made.body.data.createWebhook).toMatchObject({ events: ['*'], secret: expect.stringMatching(/^whsec_/) });
    const read = await graphql(service, '{ webhooks { webhookId url } }');
    expect(read.body.data.webhooks).toContainEqual({ webhookId: made.body.data.createWebhook.webhookId, url: 'https://93.184.215.14/g' });
  });
});
