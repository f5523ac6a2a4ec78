import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { operationTable } from '../../operations/operation-table.js';
import { createApiKey, revokeApiKey } from '../../resolvers/auth/api-keys.js';
import { SCOPES, type Scope } from '../../resolvers/auth/scopes.js';
import { setAccountLimits } from '../../resolvers/limits/account-limits.js';
import { startTestService, graphql, type TestService } from '../support/test-service.js';

let service: TestService;
const keys = {} as Record<Scope, string>;
beforeAll(async () => {
  service = await startTestService({ socketless: true });
  for (const scope of SCOPES) keys[scope] = (await createApiKey(service.services.db, service.demo.accountId, [scope])).key;
});
afterAll(async () => {
  await service?.close();
});

const accountRows = operationTable.filter((r) => r.listener === 'api');
const document = (name: string) => readFileSync(new URL(`../../operations/documents/${name}.graphql`, import.meta.url), 'utf8');
/** Well-formed variables for each operation document, so the GraphQL half reaches the scope check. */
const order = {
  sku: 'google-inbox-unwarmed',
  domains: [{ domain: 'matrix-example.com', forwardTo: 'example.com', mailboxes: [{ firstName: 'A', lastName: 'B', localPart: 'a' }] }],
};
const sampleVariables: Record<string, Record<string, unknown>> = {
  analytics: { period: 'P7D' },
  'create-workspace': { input: { name: 'Matrix' } },
  'rename-workspace': { workspaceId: 1, input: { name: 'Matrix' } },
  'delete-workspace': { workspaceId: 999999 },
  'file-domain': { domain: 'example.com', input: { workspaceId: null } },
  'set-sequencer': { subscriptionId: 'sub_x', input: { sequencer: 'instantly' } },
  'set-monitors': { subscriptionId: 'sub_x', input: { deliverability: true } },
  'raise-request': { input: { subscriptionId: 'sub_x', kind: 'other', summary: 'Matrix test' } },
  'preview-order': { order },
  'place-order': { order, idempotencyKey: 'matrix-key-1' },
  'reinstate-order': { orderId: 1, idempotencyKey: 'matrix-key-2' },
  'card-setup-link': { input: { successUrl: 'https://example.com/ok', cancelUrl: 'https://example.com/no' } },
  'create-webhook': { input: { url: 'https://93.184.215.14/hooks' } },
  'update-webhook': { webhookId: 1, input: { events: ['*'] } },
  'delete-webhook': { webhookId: 1 },
  'webhook-deliveries': { webhookId: 1 },
  'verify-domain': { domain: 'example.com' },
  'set-alert-recipients': { input: { emails: ['ops@example.com'] } },
  'set-alert-settings': { input: { dmarcPassRateThreshold: 95 } },
  'domain-setup': { domain: 'example.com' },
  'check-domain-setup': { domain: 'example.com' },
  'domain-setup-zone': { domain: 'example.com' },
  'send-test-webhook': { webhookId: 1 },
  'resend-webhook-delivery': { webhookId: 1, deliveryId: 1 },
  'create-dns-connection': { input: { kind: 'cloudflare', apiToken: 'matrix-token' } },
  'delete-dns-connection': { connectionId: 1 },
  'request-plan': { input: { message: 'Matrix test' } },
  'pay-invoices': { input: {} },
  'apply-domain-setup': { domain: 'example.com', connectionId: 1, dryRun: true },
  'domain-setup-applies': { domain: 'example.com' },
  'revert-domain-setup-apply': { domain: 'example.com', applyId: 1, dryRun: true },
  'domain-sources': { domain: 'example.com' },
  'upload-report': { input: { content: Buffer.from('<feedback/>').toString('base64') } },
  'domain-mailboxes': { domain: 'example.com' },
  'reveal-mailbox-credentials': { domain: 'example.com' },
  'reset-mailbox-password': { email: 'a@example.com' },
  'order-export': { subscriptionId: 'sub_x' },
  'dmarc-ramp': { domain: 'example.com' },
  'advance-dmarc-ramp': { domain: 'example.com', connectionId: 1, dryRun: true },
  'set-dmarc-ramp-settings': { autoAdvance: false },
};

function request(row: (typeof accountRows)[number], key: string | null) {
  const path = row.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    String(
      ['workspace_id', 'webhook_id', 'delivery_id', 'connection_id', 'apply_id', 'order_id'].includes(name) ? 1 : name === 'domain' ? 'example.com' : 'sub_x',
    ),
  );
  return service.api(path, {
    method: row.method,
    key,
    headers: { 'content-type': 'application/json', 'idempotency-key': 'matrix-key-1' },
    ...(row.method === 'GET' ? {} : { body: '{}' }),
  });
}

describe('the 401/403 matrix over every account path', () => {
  beforeAll(async () => {
    // The matrix sends every change operation through two doors with each key, refusals included, and
    // a refusal is counted against the key's change allowance (60 a minute): with more than 30 change
    // operations the read key ran out of it and got 429 where this test reads 403. The allowances
    // themselves are tested in test/account/rate-limits-doors.test.ts and operator-limits.test.ts.
    await setAccountLimits(service.services.db, service.demo.accountId, { readPerMinute: 10_000, changePerMinute: 10_000 });
  });
  // Back to the defaults, which the rate-limit tests below count on.
  afterAll(() => setAccountLimits(service.services.db, service.demo.accountId, { readPerMinute: null, changePerMinute: null }));

  for (const row of accountRows) {
    it(`${row.method} ${row.path}: no key 401, unknown key 401, each scope allowed or 403 naming ${row.scope}`, async () => {
      const none = await request(row, null);
      expect(none.status).toBe(401);
      expect((await none.json()).detail).toMatch(/Authorization: Bearer/);
      const unknown = await request(row, 'sk_live_not-a-real-key');
      expect(unknown.status).toBe(401);
      for (const scope of SCOPES.filter((s) => s !== row.scope)) {
        const response = await request(row, keys[scope]);
        const body = await response.json();
        expect(response.status).toBe(403);
        expect(body.detail).toContain(`"${row.scope}"`);
      }
      const allowed = await request(row, keys[row.scope!]);
      await allowed.json();
      expect([200, 400, 404, 409, 422]).toContain(allowed.status);
    });

    it(`${row.path} on /graphql obeys the same rule`, async () => {
      const variables = sampleVariables[row.document] ?? {};
      const none = await graphql(service, document(row.document), variables, null);
      expect(none.body.errors?.[0]?.extensions?.status).toBe(401);
      for (const scope of SCOPES.filter((s) => s !== row.scope)) {
        const result = await graphql(service, document(row.document), variables, keys[scope]);
        expect(result.body.errors?.[0]?.extensions?.status).toBe(403);
      }
      // The allowed scope gets past the scope check (a refusal of the sample data itself may follow).
      const allowed = await graphql(service, document(row.document), variables, keys[row.scope!]);
      expect([401, 403]).not.toContain(allowed.body.errors?.[0]?.extensions?.status);
    });
  }
});

describe('revocation', () => {
  it('a revoked key fails on its next request, with the same 401 as an unknown key', async () => {
    const { key, keyId } = await createApiKey(service.services.db, service.demo.accountId, ['read']);
    expect((await service.api('/v1/portal/dashboard', { key })).status).toBe(200);
    await revokeApiKey(service.services.db, keyId);
    const revoked = await service.api('/v1/portal/dashboard', { key });
    const unknown = await service.api('/v1/portal/dashboard', { key: 'sk_live_never-issued' });
    expect(revoked.status).toBe(401);
    const [a, b] = [await revoked.json(), await unknown.json()];
    expect(a.detail).toBe(b.detail);
  });

  it('only a hash of the key is stored; a key reads sk_live_ when live and sk_test_ in sandbox mode, and both work', async () => {
    const { key } = await createApiKey(service.services.db, service.demo.accountId, ['read'], { mode: 'live' });
    expect(key).toMatch(/^sk_live_[A-Za-z0-9_-]{40,}$/);
    const sandbox = await createApiKey(service.services.db, service.demo.accountId, ['read'], { mode: 'test' });
    expect(sandbox.key).toMatch(/^sk_test_[A-Za-z0-9_-]{40,}$/);
    expect((await service.api('/v1/payment-method', { key })).status).toBe(200);
    expect((await service.api('/v1/payment-method', { key: sandbox.key })).status).toBe(200);
    const rows = await service.services.db.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(key);
  });
});

describe('rate limits', () => {
  it('the header counts down and the 241st read in a minute is a 429 with Retry-After', async () => {
    const { key } = await createApiKey(service.services.db, service.demo.accountId, ['read']);
    const first = await service.api('/v1/payment-method', { key });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('239');
    const second = await service.api('/v1/payment-method', { key });
    expect(second.headers.get('x-ratelimit-remaining')).toBe('238');
    const statuses: number[] = [];
    for (let i = 0; i < 238; i += 1) statuses.push((await service.api('/v1/payment-method', { key })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await service.api('/v1/payment-method', { key });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await over.json()).detail).toMatch(/240 per minute/);
    // Another key keeps its own allowance.
    expect((await service.api('/v1/payment-method')).status).toBe(200);
  });
});

describe('when the database cannot be reached', () => {
  it('a keyed request is a 503 with Retry-After and a detail, not a 500', async () => {
    const isolated = await startTestService();
    await isolated.database.close();
    const response = await isolated.api('/v1/portal/dashboard');
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await response.json()).detail).toMatch(/retry/i);
    await isolated.close();
  });
});
