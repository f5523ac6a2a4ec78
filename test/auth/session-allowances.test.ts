import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { sessionGraphql, signIn, signUpNew } from './auth-support.js';
import { freshOutbox } from '../people/people-support.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ env: { ALERT_OUTBOX_DIR: freshOutbox() }, rateLimits: { read: 3 } });
});
afterAll(async () => {
  await service?.close();
});

describe('a session is counted per person', () => {
  it('two sessions of one person share one reading allowance', async () => {
    const first = await signUpNew(service, 'counted@example.com');
    const second = await signIn(service, 'counted@example.com', 'correct horse battery');
    const statuses: number[] = [];
    for (const cookie of [first.cookie, second.cookie, first.cookie, second.cookie]) {
      statuses.push((await sessionGraphql(service, cookie, '{ apiKeys { keyId } }')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('signing in again with the old cookie ends the old session (rotation)', async () => {
    const first = await signUpNew(service, 'rotated@example.com');
    const again = await signIn(service, 'rotated@example.com', 'correct horse battery', { cookie: first.cookie });
    expect(again.response.status).toBe(200);
    const old = await sessionGraphql(service, first.cookie, '{ apiKeys { keyId } }');
    expect(old.status).toBe(401);
  });
});

describe('keys made with Stripe configured', () => {
  it('read sk_live_', async () => {
    const live = await startTestService({
      env: { STRIPE_SECRET_KEY: 'sk_test_fake_0123456789', STRIPE_API_BASE: 'http://127.0.0.1:9', ALERT_OUTBOX_DIR: freshOutbox() },
    });
    try {
      const { cookie } = await signUpNew(live, 'live-keys@example.com');
      const made = await sessionGraphql(live, cookie, 'mutation { createApiKey(input: {name: "prod", scopes: ["read"]}) { key } }');
      expect(made.body.data.createApiKey.key).toMatch(/^sk_live_/);
    } finally {
      await live.close();
    }
  });
});
