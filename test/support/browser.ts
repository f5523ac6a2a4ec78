import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (no browser download). CI installs the `chromium`
 * package; on a machine without it the browser tests say so in their names and are skipped.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
export const NO_CHROMIUM_REASON = `skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`;

export function launchChromium(): Promise<Browser> {
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
