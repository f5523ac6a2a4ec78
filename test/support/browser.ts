import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inCi } from './ci.js';
import { forgetContext, keepContext, lendContext, takeIdleContext, type PooledContext } from './browser-context-pool.js';

/**
 * Debian's Chromium driven by playwright-core (no browser download). CI installs the `chromium`
 * package and requires it: under CI (test/support/ci.ts) the browser tests run, and fail, without
 * it. Elsewhere a machine without it skips them, saying so in their names.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
/** Whether the browser tests run: Chromium is there, or CI requires it. */
export const runBrowserTests = hasChromium || inCi;
export const NO_CHROMIUM_REASON = `skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`;

/**
 * This worker process's Chromium, lent to a test file: launched by the first file that asks and kept
 * for the files after it (a launch costs about 1 s of CPU; 17 files each launched their own). The
 * Browser returned is the file's handle: its close() closes the contexts the file opened through it,
 * not the browser, which goes when the process does. A browser that has died is launched again.
 */
export async function launchChromium(): Promise<Browser> {
  if (!hasChromium)
    throw new Error(`No Chromium at ${CHROMIUM_PATH}, and CI requires the browser tests: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH.`);
  // On globalThis: test/support/fresh-modules.ts evaluates this module anew for each file.
  const shared = globalThis as { svcChromium?: Promise<Browser> };
  const running = await shared.svcChromium?.catch(() => undefined);
  if (running?.isConnected()) return lend(running);
  shared.svcChromium = startChromium();
  return lend(await shared.svcChromium);
}

/** What a file's handle knows: the shared browser, and how to hand back the pooled contexts it holds. */
interface FileHandle {
  readonly browser: Browser;
  readonly lent: Set<() => Promise<void>>;
}
const FILE_HANDLE = Symbol('the file handle of the shared browser');

/**
 * The file's handle on the shared browser: newContext records what it opens, close() closes those
 * and hands back the pooled contexts (localOnlyContext) the file still holds.
 */
function lend(browser: Browser): Browser {
  const opened = new Set<BrowserContext>();
  const handle: FileHandle = { browser, lent: new Set() };
  return new Proxy(browser, {
    get(target, property) {
      if (property === FILE_HANDLE) return handle;
      if (property === 'close')
        return async () => {
          await Promise.all([...opened].map((context) => context.close().catch(() => undefined)));
          opened.clear();
          await Promise.all([...handle.lent].map((giveBack) => giveBack()));
        };
      if (property === 'newContext')
        return async (options?: Parameters<Browser['newContext']>[0]) => {
          const context = await target.newContext(options);
          opened.add(context);
          context.once('close', () => opened.delete(context));
          return context;
        };
      if (property === 'newPage') return () => Promise.reject(new Error('Open pages through localOnlyContext, so that the file closes what it opens.'));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function startChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Nothing leaves this machine: every request but loopback's goes to a proxy at the discard port,
      // where nothing listens, and fails (Chromium sends localhost and 127.0.0.1 direct, bypassing
      // the proxy). Unlike request interception (context.route), this leaves the HTTP cache on, so a
      // test that opens page after page compiles the portal's scripts once, not on every page.
      '--proxy-server=http://127.0.0.1:9',
      // One renderer process for every page instead of a new one per page: the tests load pages
      // from one origin, where a process each buys no isolation, and starting one cost about 70 ms
      // of CPU a page (measured: 30 portal pages, 11.6 s of Chromium CPU against 9.6 s).
      '--renderer-process-limit=1',
      '--process-per-site',
      '--disable-site-isolation-trials',
    ],
  });
}

export interface LocalOnlyContext {
  readonly context: BrowserContext;
  /** Every request the pages tried to send anywhere but 127.0.0.1/localhost (and that was refused). */
  readonly offsite: string[];
}

/**
 * Run in every page before its own scripts: counts the page's fetches started and not yet settled
 * (`window.__requestsInFlight`) and every fetch started (`window.__requestsStarted`), so a test can
 * wait for the page's data to have arrived (pageSettled in portal-browser.ts) instead of guessing.
 */
const COUNT_REQUESTS_IN_FLIGHT = `(() => {
  const original = window.fetch;
  window.__requestsInFlight = 0;
  window.__requestsStarted = 0;
  window.fetch = function (...args) {
    window.__requestsInFlight += 1;
    window.__requestsStarted += 1;
    return original.apply(this, args).finally(() => { window.__requestsInFlight -= 1; });
  };
})();`;

/**
 * A browser context whose pages reach only this machine (launchChromium's proxy makes every other
 * request fail), with every request for anywhere but 127.0.0.1/localhost recorded, so a page that
 * pulled a font, script or image from the internet is caught. The requests are watched, not
 * intercepted: interception would turn the HTTP cache off.
 *
 * Its close() hands it back to the worker's pool (browser-context-pool.ts) rather than closing it:
 * a new context costs about 0.65 s of Chromium CPU more than one reused.
 */
export async function localOnlyContext(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<LocalOnlyContext> {
  const file = (browser as Browser & { [FILE_HANDLE]?: FileHandle })[FILE_HANDLE];
  if (!file) throw new Error('localOnlyContext takes the browser launchChromium lends to the file.');
  const key = JSON.stringify(options);
  const pooled = takeIdleContext(file.browser, key) ?? (await openLocalOnly(file.browser, options));
  pooled.offsite = [];
  const context = lendContext(pooled, async () => {
    file.lent.delete(handBack);
    await keepContext(file.browser, key, pooled);
  });
  const handBack = () => context.close();
  file.lent.add(handBack);
  return { context, offsite: pooled.offsite };
}

async function openLocalOnly(browser: Browser, options: Parameters<Browser['newContext']>[0]): Promise<PooledContext> {
  const context = await browser.newContext(options);
  await context.addInitScript(COUNT_REQUESTS_IN_FLIGHT);
  const pooled: PooledContext = { context, keepAlive: await keepRendererAlive(context), offsite: [] };
  context.once('close', () => forgetContext(browser, pooled));
  context.on('request', (request) => {
    const url = new URL(request.url());
    const local =
      url.protocol === 'data:' ||
      url.protocol === 'about:' ||
      url.protocol === 'blob:' ||
      url.hostname === '127.0.0.1' ||
      url.hostname === 'localhost' ||
      url.hostname === '[::1]';
    if (!local) pooled.offsite.push(url.href);
  });
  return pooled;
}

/**
 * Opens a blank page on 127.0.0.1 that stays open as long as the context. Chromium ends a renderer
 * process when its last page closes, and a new page starts two (about 0.2 s of CPU each): a test
 * that opens page after page in one context paid that on every page. With this page holding the
 * 127.0.0.1 renderer, later pages on any 127.0.0.1 port share it (--process-per-site; the port is not
 * part of the site). Measured: 10 portal pages opened and closed in one context, 10.1 s of Chromium
 * CPU without it, 4.8 s with it. Pages still share nothing else: each is its own document.
 */
async function keepRendererAlive(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(await blankPageUrl());
  return page;
}

/** An empty page on 127.0.0.1, served by this worker process (one server per process, not per file). */
function blankPageUrl(): Promise<string> {
  const shared = globalThis as { svcBlankPageUrl?: Promise<string> };
  shared.svcBlankPageUrl ??= new Promise((resolve) => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="en"><title>blank</title></html>');
    });
    // Never what keeps the process alive.
    server.unref();
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`));
  });
  return shared.svcBlankPageUrl;
}
