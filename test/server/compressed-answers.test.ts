import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { acceptsGzip } from '../../server/compress-answer.js';
import { runBrowserTests, launchChromium, localOnlyContext, NO_CHROMIUM_REASON } from '../support/browser.js';
import { PHONE } from '../support/portal-browser.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { expectAxeClean } from '../support/axe.js';

/** Issue 23, item 8: every text answer over 1 KB goes gzip-compressed to a gzip client (GraphiQL's 9 MB page above all), and /docs' examples are keyboard-reachable. */
let service: TestService;
let browser: Browser | undefined;
beforeAll(async () => {
  service = await startTestService();
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** A GET over a real socket, the bytes as sent (fetch would undo the gzip). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gzip for text answers over 1 KB', () => {
  it('GraphiQL (GET /graphql from a browser) goes compressed to a gzip client, under a third of its size', async () => {
    const plain = await rawGet(`${service.apiUrl}/graphql`, { accept: 'text/html' });
    const packed = await rawGet(`${service.apiUrl}/graphql`, { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1_000_000);
    expect(packed.status).toBe(200);
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(packed.body).equals(plain.body)).toBe(true);
    expect(packed.body.length).toBeLessThan(plain.body.length / 3);
    // Kept once made: the second gzip client gets the same bytes.
    const again = await rawGet(`${service.apiUrl}/graphql`, { accept: 'text/html', 'accept-encoding': 'gzip' });
    expect(again.body.equals(packed.body)).toBe(true);
  });

  it('JSON answers over 1 KB (dashboard, OpenAPI, /docs, a check) go compressed; the same text comes out', async () => {
    const cases: [string, Record<string, string>][] = [
      [`${service.apiUrl}/v1/portal/dashboard`, { authorization: `Bearer ${service.demo.key}` }],
      [`${service.apiUrl}/openapi.json`, {}],
      [`${service.apiUrl}/docs`, {}],
      [`${service.publicUrl}/openapi.json`, {}],
      [`${service.publicUrl}/tools.json`, {}],
    ];
    for (const [url, headers] of cases) {
      const plain = await rawGet(url, headers);
      const packed = await rawGet(url, { ...headers, 'accept-encoding': 'gzip' });
      expect(plain.status, url).toBe(200);
      expect(plain.body.length, url).toBeGreaterThan(1024);
      expect(packed.headers['content-encoding'], url).toBe('gzip');
      expect(packed.headers['content-length'], url).toBeUndefined();
      // The dashboard's created_at times are fixed; the document pages too: the same text either way.
      expect(gunzipSync(packed.body).toString(), url).toBe(plain.body.toString());
    }
  });

  it('an answer under 1 KB, a client that refuses gzip (q=0) and a 304 go as they are', async () => {
    const small = await rawGet(`${service.apiUrl}/v1/payment-method`, { authorization: `Bearer ${service.demo.key}`, 'accept-encoding': 'gzip' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toBeDefined();
    const refused = await rawGet(`${service.apiUrl}/openapi.json`, { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const first = await rawGet(`${service.apiUrl}/v1/portal/dashboard`, { authorization: `Bearer ${service.demo.key}`, 'accept-encoding': 'gzip' });
    const unchanged = await rawGet(`${service.apiUrl}/v1/portal/dashboard`, {
      authorization: `Bearer ${service.demo.key}`,
      'accept-encoding': 'gzip',
      'if-none-match': String(first.headers.etag),
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
    expect(unchanged.headers['content-encoding']).toBeUndefined();
  });

  it('Accept-Encoding is read as RFC 9110 says', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('*;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('x-gzip')).toBe(true);
  });
});

describe('/docs on a phone', () => {
  it('every example block is a tab stop (tabindex="0")', async () => {
    for (const base of [service.apiUrl, service.publicUrl]) {
      const html = await (await fetch(`${base}/docs`)).text();
      const pres = html.match(/<pre\b[^>]*>/g) ?? [];
      expect(pres.length, base).toBeGreaterThan(5);
      for (const pre of pres) expect(pre, base).toContain('tabindex="0"');
    }
  });

  it.skipIf(!runBrowserTests)(
    `axe finds no serious scrollable-region or other violation on either listener's /docs${runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`}`,
    async () => {
      const { context } = await localOnlyContext(browser!, { viewport: PHONE });
      try {
        for (const base of [service.apiUrl, service.publicUrl]) {
          const page = await context.newPage();
          await page.goto(`${base}/docs`);
          await expectAxeClean(page, 'wcag', `${base}/docs`);
          await page.close();
        }
      } finally {
        await context.close();
      }
    },
  );
});
