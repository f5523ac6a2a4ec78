import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { serveHttp } from '../../server/serve-http.js';
import { configureLog, flushLog, log } from '../../observability/log.js';
import { PUBLIC_CORS } from '../../server/public-app.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** A bare listener whose handler logs one line with the ids it was given for logs, and answers the request id it was given. */
let server: Server;
let base: string;
beforeAll(async () => {
  server = serveHttp(
    async (_request, info) => {
      log('info', 'handled', { ...info.logIds });
      return new Response(JSON.stringify({ request_id: info.requestId }), { headers: { 'content-type': 'application/json' } });
    },
    { maxBodyBytes: 1024, name: 'test', ownAnswerHeaders: PUBLIC_CORS },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function logged(call: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  configureLog({ silent: false });
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await call();
  } finally {
    flushLog();
    spy.mockRestore();
    configureLog({ silent: true });
  }
  return lines
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('X-Request-Id', () => {
  it("a well-formed id of the caller's is answered back, and logged beside our own, never instead of it", async () => {
    let response!: Response;
    const lines = await logged(async () => {
      response = await fetch(base, { headers: { 'x-request-id': 'gw-trace.42_A' } });
      await response.arrayBuffer();
    });
    expect(response.headers.get('x-request-id')).toBe('gw-trace.42_A');
    const handled = lines.find((l) => l.message === 'handled')!;
    expect(handled.client_request_id).toBe('gw-trace.42_A');
    expect(handled.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an id that is too long or holds other characters is dropped for our own', async () => {
    for (const sent of ['x'.repeat(129), 'has space', 'semi;colon', 'ünïcode']) {
      const lines = await logged(async () => {
        const response = await fetch(base, { headers: { 'x-request-id': encodeURI(sent) === sent ? sent : encodeURIComponent(sent) } });
        expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect((await response.json()).request_id).toBe(response.headers.get('x-request-id'));
      });
      expect(lines.find((l) => l.message === 'handled')).not.toHaveProperty('client_request_id');
    }
    expect((await fetch(base, { headers: { 'x-request-id': 'x'.repeat(128) } })).headers.get('x-request-id')).toBe('x'.repeat(128));
  });

  it('a request Node refuses unparsed (431) carries a request id in its body and headers, and nosniff', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
        socket.write(`GET /?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (d) => {
        text += String(d);
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431/);
    const id = /X-Request-Id: ([0-9a-f-]{36})/i.exec(raw)?.[1];
    expect(id).toBeTruthy();
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).request_id).toBe(id);
    expect(raw).toMatch(/X-Content-Type-Options: nosniff/i);
    expect(raw).toMatch(/Access-Control-Expose-Headers: .*X-Request-Id/i);
  });
});

describe('both listeners', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ rateLimits: { public: 10_000 } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('every answer carries X-Content-Type-Options: nosniff (200, 404, 401, 413, the GraphQL console)', async () => {
    const answers = [
      await service.api('/v1/portal/orders'),
      await service.api('/v1/nowhere'),
      await service.api('/v1/portal/orders', { key: null }),
      await service.api('/v1/portal/workspaces', { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) }),
      await service.pub('/.platform/functions/check-dmarc'),
      await service.pub('/graphql', { headers: { accept: 'text/html' } }),
    ];
    for (const response of answers) expect(response.headers.get('x-content-type-options'), `${response.url} ${response.status}`).toBe('nosniff');
  });

  it("the public listener's CORS exposes the allowance headers and the request id, and preflight allows MCP's headers", async () => {
    const answer = await service.pub('/.platform/functions/check-dmarc');
    const exposed = (answer.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'x-request-id']));
    const preflight = await service.pub('/mcp', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://x.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-session-id',
      },
    });
    expect(preflight.status).toBe(204);
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['content-type', 'mcp-protocol-version', 'mcp-session-id']) expect(allowed).toContain(header);
  });

  it('the GraphQL console loads nothing from another origin (it works offline)', async () => {
    const page = await service.api('/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    // GraphiQL itself, with its scripts and styles inline: no src or href reaches another origin.
    expect(html).toContain('GraphiQL');
    expect(html.length).toBeGreaterThan(100_000);
    expect(html).not.toMatch(/(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/unpkg\.com|jsdelivr\.net/i);
  });
});
