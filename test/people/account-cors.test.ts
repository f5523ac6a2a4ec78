import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { freshOutbox, signUpDirect } from './people-support.js';

let service: TestService;
let portal: string;
let cookie: string;
beforeAll(async () => {
  service = await startTestService({ env: { ALERT_OUTBOX_DIR: freshOutbox() } });
  portal = new URL(service.services.config.apiUrl).origin;
  ({ cookie } = await signUpDirect(service, 'cors-owner@example.com'));
});
afterAll(async () => {
  await service?.close();
});

/** Pages a signed-in person might have open beside the portal: a sibling subdomain, another port of the same host. */
const foreignOrigins = () => {
  const url = new URL(portal);
  return [
    `${url.protocol}//evil.${url.hostname === '127.0.0.1' ? 'localhost' : url.hostname}:${url.port}`,
    `${url.protocol}//${url.hostname}:${Number(url.port) + 1}`,
  ];
};

const preflight = (origin: string) =>
  service.api('/graphql', {
    method: 'OPTIONS',
    key: null,
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-graphql-yoga-csrf' },
  });

const MINT = JSON.stringify({ query: 'mutation { createApiKey(input: {name: "stolen", scopes: ["read"]}) { key } }' });

describe("the account /graphql's CORS", () => {
  it("answers the portal's own origin with credentials and lets it send the CSRF header", async () => {
    const answer = await preflight(portal);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(portal);
    expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
    expect(answer.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-graphql-yoga-csrf');
    const real = await service.api('/graphql', {
      method: 'POST',
      key: null,
      headers: { origin: portal, cookie, 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1' },
      body: JSON.stringify({ query: '{ viewer { email } }' }),
    });
    expect(real.status).toBe(200);
    expect(((await real.json()) as { data: { viewer: { email: string } } }).data.viewer.email).toBe('cors-owner@example.com');
    expect(real.headers.get('access-control-allow-credentials')).toBe('true');
    expect(real.headers.get('access-control-allow-origin')).toBe(portal);
  });

  it('answers a sibling subdomain and another port without credentials, and does not let them send the CSRF header', async () => {
    for (const origin of foreignOrigins()) {
      const answer = await preflight(origin);
      expect(answer.status, origin).toBe(204);
      expect(answer.headers.get('access-control-allow-origin'), origin).toBe('*');
      expect(answer.headers.get('access-control-allow-credentials'), origin).toBeNull();
      const allowed = (answer.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      expect(allowed, origin).toContain('authorization');
      expect(allowed, origin).not.toContain('x-graphql-yoga-csrf');
    }
  });

  it('refuses a request from another origin that carries the session cookie, and mints no key', async () => {
    for (const origin of foreignOrigins()) {
      const answer = await service.api('/graphql', {
        method: 'POST',
        key: null,
        headers: { origin, cookie, 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1' },
        body: MINT,
      });
      expect(answer.status, origin).toBe(403);
      const body = (await answer.json()) as { code: string; detail: string };
      expect(body.code).toBe('cross_site_request');
      expect(body.detail).toMatch(/API key/);
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const keys = await service.api('/graphql', {
      method: 'POST',
      key: null,
      headers: { origin: portal, cookie, 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1' },
      body: JSON.stringify({ query: '{ apiKeys { name } }' }),
    });
    expect(((await keys.json()) as { data: { apiKeys: { name: string }[] } }).data.apiKeys.map((k) => k.name)).not.toContain('stolen');
  });

  it('lets a page on another origin call with an API key, without credentials', async () => {
    const [origin] = foreignOrigins();
    const answer = await service.api('/graphql', {
      method: 'POST',
      headers: { origin: origin!, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
