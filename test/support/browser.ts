import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { inCi } from './ci.js';

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

export async function launchChromium(): Promise<Browser> {
  if (!hasChromium)
    throw new Error(`No Chromium at ${CHROMIUM_PATH}, and CI requires the browser tests: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH.`);
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
    ],
  });
}

export interface LocalOnlyContext {
  readonly context: BrowserContext;
  /** Every request the pages tried to send anywhere but 127.0.0.1/localhost (and that was refused). */
  readonly offsite: string[];
}

/**
 * A browser context that refuses every request leaving this machine, so a page that pulled a font,
 * script or image from the internet would be caught (and no test reaches the network).
 */
export async function localOnlyContext(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<LocalOnlyContext> {
  const context = await browser.newContext(options);
  const offsite: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    const local =
      url.protocol === 'data:' || url.protocol === 'about:' || url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
    if (local) return route.continue();
    offsite.push(url.href);
    return route.abort('blockedbyclient');
  });
  return { context, offsite };
}
