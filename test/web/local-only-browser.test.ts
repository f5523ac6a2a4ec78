import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, localOnlyContext, NO_CHROMIUM_REASON, runBrowserTests } from '../support/browser.js';

/**
 * The browser tests' guard (test/support/browser.ts): a page that asks for something off this
 * machine has it recorded in `offsite`, and the request fails instead of leaving; loopback still
 * loads. The page tests assert `offsite` is empty, so this guard is what makes those checks able to fail.
 */
const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;
const OFFSITE_IMAGE = 'http://192.0.2.1/pixel.png';
const OFFSITE_SCRIPT = 'http://cdn.example.com/library.js';

let browser: Browser | undefined;
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/local.svg') {
      response.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>t</title><img src="/local.svg"><img src="${OFFSITE_IMAGE}"><script src="${OFFSITE_SCRIPT}"></script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

it.skipIf(!runBrowserTests)(`records each request for another host and lets none of them through; loopback loads${skipNote}`, async () => {
  const { context, offsite } = await localOnlyContext(browser!);
  try {
    const page = await context.newPage();
    const failed: string[] = [];
    const loaded: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    page.on('requestfinished', (request) => loaded.push(request.url()));
    await page.goto(origin);
    await page.waitForLoadState('load');
    expect(offsite.sort()).toEqual([OFFSITE_SCRIPT, OFFSITE_IMAGE].sort());
    expect(failed.sort()).toEqual([OFFSITE_SCRIPT, OFFSITE_IMAGE].sort());
    expect(loaded).toContain(`${origin}/local.svg`);
    // A fetch from the page's own script fails the same way.
    const fetched = await page.evaluate(() =>
      fetch('http://198.51.100.7/').then(
        () => 'answered',
        (error: unknown) => `refused: ${String(error)}`,
      ),
    );
    expect(fetched).toMatch(/^refused: /);
    expect(offsite).toContain('http://198.51.100.7/');
  } finally {
    await context.close();
  }
});
