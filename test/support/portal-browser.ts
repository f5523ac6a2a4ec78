import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { localOnlyContext } from './browser.js';
import { createUserInAccount } from './portal-people.js';
import type { TestService } from './test-service.js';

/** Where the portal tests put their screenshots (kept by CI as test output). */
export const PORTAL_SCREENSHOTS = process.env.SCREENSHOT_DIR ?? join(process.cwd(), 'test-output', 'portal');

export const DESKTOP = { width: 1280, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export interface PortalPage {
  readonly page: Page;
  /** Requests the page tried to send off this machine (must stay empty). */
  readonly offsite: string[];
  close(): Promise<void>;
}

/** A fresh browser context (its own cookies) on the portal, with everything off-machine refused. */
export async function openPortal(
  browser: Browser,
  service: TestService,
  viewport: { width: number; height: number } = DESKTOP,
  path = '/',
): Promise<PortalPage> {
  const { context, offsite } = await localOnlyContext(browser, { viewport });
  const page = await context.newPage();
  await page.goto(`${service.apiUrl}/portal${path}`);
  return { page, offsite, close: () => context.close() };
}

/**
 * Waits until the page's data has arrived: no fetch in flight (counted by the init script of
 * localOnlyContext, test/support/browser.ts), no query still showing "Loading…" (.loading), and no
 * new fetch started across three checks in a row. A page's h1 renders before its data, and a part of
 * a page may start its query only after another part's answer, so "no .loading now" alone returned
 * at once when the next query had not started yet (a CI run counted 0 cards that way).
 */
export async function pageSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const w = window as unknown as { __requestsInFlight?: number; __requestsStarted?: number; __settledSeen?: { started: number; times: number } };
      const quiet = (w.__requestsInFlight ?? 0) === 0 && document.querySelector('.loading') === null;
      const started = w.__requestsStarted ?? 0;
      if (!quiet) {
        w.__settledSeen = undefined;
        return false;
      }
      // Quiet and nothing started since the last check: count it; three in a row are settled.
      const seen: { started: number; times: number } = w.__settledSeen?.started === started ? w.__settledSeen : { started, times: 0 };
      seen.times += 1;
      w.__settledSeen = seen;
      if (seen.times < 3) return false;
      w.__settledSeen = undefined;
      return true;
    },
    undefined,
    { polling: 30 },
  );
}

/** Fills the sign-in form and waits for the dashboard's heading and data. */
export async function signInThroughPage(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  await pageSettled(page);
}

/**
 * A person on the service's demo account (orders, invoices, analytics... already there), with a
 * password of our choosing, signed in on a new page opened at `path` (the dashboard by default).
 *
 * The sign-in is the service's own POST /auth/sign-in, sent from here, and its session cookie is
 * handed to the browser context: the first page the browser loads is then the one the test is about.
 * Signing in through the form cost every test a sign-in page and a dashboard before its own page
 * (about 1 s of Chromium and test-process CPU each, 50 times a run); the form itself is tested
 * through the page in portal-sign-in.test.ts and portal-people.test.ts (signInThroughPage).
 */
export async function signedInPortal(
  browser: Browser,
  service: TestService,
  options: { role?: 'owner' | 'member'; viewport?: { width: number; height: number }; accountId?: number; path?: string } = {},
): Promise<PortalPage & { email: string; password: string }> {
  const person = await createUserInAccount(service, options.accountId ?? service.demo.accountId, options.role ?? 'owner');
  const signIn = await service.api('/auth/sign-in', {
    method: 'POST',
    key: null,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: person.email, password: person.password }),
  });
  const token = /(?:^|;\s*)svc_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1];
  if (signIn.status !== 200 || !token) throw new Error(`POST /auth/sign-in answered ${signIn.status} without a session cookie: ${await signIn.text()}`);
  const { context, offsite } = await localOnlyContext(browser, { viewport: options.viewport ?? DESKTOP });
  await context.addCookies([{ name: 'svc_session', value: token, url: service.apiUrl, httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  await page.goto(`${service.apiUrl}/portal${options.path ?? '/'}`);
  await page.locator('h1').first().waitFor();
  await pageSettled(page);
  if ((await page.locator('h1').first().textContent()) === 'Sign in')
    throw new Error(`The session cookie from POST /auth/sign-in did not sign the browser in at ${page.url()}.`);
  return { page, offsite, close: () => context.close(), ...person };
}

/** Saves a full-page screenshot under PORTAL_SCREENSHOTS; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(PORTAL_SCREENSHOTS, { recursive: true });
  const path = join(PORTAL_SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
