import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { createContext } from '../../resolvers/context.js';
import { freshOutbox, signUpDirect } from './people-support.js';

/**
 * CSRF on /graphql (server/session-csrf.ts): yoga's CSRF-prevention plugin on the yoga instance for
 * requests signed in by the session cookie, and in front of it the door's stricter rules (the
 * portal's origin only; the header whatever the content type), answered in our words with a detail
 * sentence. Key callers and anonymous callers are never asked for the header.
 */
let service: TestService;
let portal: string;
let cookie: string;
beforeAll(async () => {
  service = await startTestService({ env: { ALERT_OUTBOX_DIR: freshOutbox() } });
  portal = new URL(service.services.config.apiUrl).origin;
  ({ cookie } = await signUpDirect(service, 'csrf-owner@example.com'));
});
afterAll(async () => {
  await service?.close();
});

const MINT = 'mutation { createApiKey(input: {name: "forged", scopes: ["read"]}) { key } }';

/** The three bodies a page elsewhere can POST without a preflight (a form, or fetch in no-cors mode). */
const SIMPLE_POSTS: readonly { readonly type: string; readonly body: () => BodyInit }[] = [
  { type: 'text/plain', body: () => JSON.stringify({ query: MINT }) },
  { type: 'application/x-www-form-urlencoded', body: () => new URLSearchParams({ query: MINT }).toString() },
  {
    type: 'multipart/form-data; boundary=x',
    body: () => `--x\r\ncontent-disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: MINT })}\r\n--x--\r\n`,
  },
];

async function refusal(answer: Response): Promise<{ status: number; code: string; detail: string }> {
  const body = (await answer.json()) as { code: string; detail: string };
  return { status: answer.status, code: body.code, detail: body.detail };
}

async function keyNames(): Promise<string[]> {
  const answer = await service.api('/graphql', {
    method: 'POST',
    key: null,
    headers: { origin: portal, cookie, 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1' },
    body: JSON.stringify({ query: '{ apiKeys { name } }' }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { apiKeys: { name: string }[] } }).data.apiKeys.map((k) => k.name);
}

describe('CSRF on /graphql', () => {
  it('refuses a cross-site simple POST carrying the session cookie, with a detail sentence, and mints no key', async () => {
    for (const { type, body } of SIMPLE_POSTS) {
      // From another site: the browser names the page's origin.
      const crossSite = await refusal(
        await service.api('/graphql', { method: 'POST', key: null, headers: { origin: 'https://evil.example', cookie, 'content-type': type }, body: body() }),
      );
      expect(crossSite, type).toEqual({ status: 403, code: 'cross_site_request', detail: expect.stringMatching(/evil\.example.*API key/) });
      // No Origin (an older browser, or one that leaves it out): refused for the missing header.
      const noOrigin = await refusal(await service.api('/graphql', { method: 'POST', key: null, headers: { cookie, 'content-type': type }, body: body() }));
      expect(noOrigin, type).toEqual({ status: 403, code: 'csrf_header_missing', detail: expect.stringContaining('"x-graphql-yoga-csrf" header') });
    }
    // A GET (a link or an image elsewhere) the same.
    const get = await service.api(`/graphql?query=${encodeURIComponent('{ apiKeys { name } }')}`, { key: null, headers: { cookie } });
    expect(await refusal(get)).toEqual({ status: 403, code: 'csrf_header_missing', detail: expect.stringContaining('x-graphql-yoga-csrf') });
    expect(await keyNames()).not.toContain('forged');
  });

  it('refuses a cookie-signed JSON POST without the header too, which yoga’s plugin alone would let through', async () => {
    const answer = await service.api('/graphql', {
      method: 'POST',
      key: null,
      headers: { origin: portal, cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ query: MINT }),
    });
    expect(await refusal(answer)).toEqual({ status: 403, code: 'csrf_header_missing', detail: expect.stringContaining('x-graphql-yoga-csrf') });
    expect(await keyNames()).not.toContain('forged');
  });

  it('lets the portal in: the session cookie with the header from its own origin, by POST and by GET', async () => {
    const post = await service.api('/graphql', {
      method: 'POST',
      key: null,
      headers: { origin: portal, cookie, 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1' },
      body: JSON.stringify({ query: '{ apiKeys { keyId } }' }),
    });
    expect(post.status).toBe(200);
    expect(((await post.json()) as { data: { apiKeys: unknown[] } }).data.apiKeys).toEqual([]);
    const get = await service.api(`/graphql?query=${encodeURIComponent('{ apiKeys { keyId } }')}`, {
      key: null,
      headers: { cookie, 'x-graphql-yoga-csrf': '1' },
    });
    expect(get.status).toBe(200);
  });

  it('never asks a key caller for the header: GET, a JSON POST, another origin, a cookie sent beside the key', async () => {
    const query = '{ dashboard { domainCount } }';
    const answers = [
      await service.api(`/graphql?query=${encodeURIComponent(query)}`),
      await service.api('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) }),
      await service.api('/graphql', {
        method: 'POST',
        headers: { origin: 'https://elsewhere.example', cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { data: { dashboard: { domainCount: number } } }).data.dashboard.domainCount).toBeGreaterThan(0);
    }
  });

  it('never asks an anonymous caller for the header (the public checks by GET)', async () => {
    const answer = await service.pub(`/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it("yoga's CSRF-prevention plugin guards whatever reaches yoga signed in by the cookie", async () => {
    const url = `${service.apiUrl}/graphql?query=${encodeURIComponent('{ __typename }')}`;
    const through = (headers: Record<string, string>) => {
      const request = new Request(url, { headers });
      const appContext = createContext(service.services, {
        authorization: request.headers.get('authorization'),
        sessionToken: null,
        requestId: 'csrf-plugin',
        clientAddress: '127.0.0.1',
      });
      return service.yoga.fetch(request, { appContext });
    };
    const refused = await through({ cookie });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errors: { message: string }[] }).errors[0]?.message).toBe('Required CSRF header(s) not present');
    expect((await through({ cookie, 'x-graphql-yoga-csrf': '1' })).status).toBe(200);
    expect((await through({ cookie, authorization: `Bearer ${service.demo.key}` })).status).toBe(200);
    expect((await through({})).status).toBe(200);
    // A GET without a query runs nothing: it keeps yoga's own answer, through the door as handed to yoga.
    const noQuery = { cookie, accept: 'application/json' };
    const direct = await service.yoga.fetch(new Request(`${service.apiUrl}/graphql`, { headers: noQuery }), {
      appContext: createContext(service.services, { authorization: null, requestId: 'csrf-plugin', clientAddress: '127.0.0.1' }),
    });
    const viaDoor = await service.api('/graphql', { key: null, headers: noQuery });
    for (const answer of [direct, viaDoor]) {
      expect(answer.status).not.toBe(403);
      expect(JSON.stringify(await answer.json())).not.toMatch(/CSRF|csrf/);
    }
  });
});
