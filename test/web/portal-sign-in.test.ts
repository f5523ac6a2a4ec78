import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { openPortal, PHONE, screenshot, signedInPortal, signInThroughPage } from '../support/portal-browser.js';
import { createUserInAccount } from '../support/portal-people.js';

const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;

let service: TestService;
let browser: Browser | undefined;

beforeAll(async () => {
  service = await startTestService({ googleTenancy: { probe: async () => 'unknown' } });
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('the portal is served at /portal/', () => {
  it('answers index.html for its own routes, hashed assets cached for a year, and 404 for a missing asset', async () => {
    const index = await service.api('/portal/orders', { key: null });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    expect(index.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const html = await index.text();
    const script = /src="(\/portal\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await service.api(script!, { key: null, headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
    const missing = await service.api('/portal/assets/nothing-here.js', { key: null });
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toMatch(/reload \/portal\//);
    expect((await service.api('/portal', { key: null, redirect: 'manual' })).headers.get('location')).toBe('/portal/');
  });
});

describe('signing in to the portal in Chromium', () => {
  it.skipIf(!runBrowserTests)(`refuses a wrong password with the service's sentence, then signs in to the dashboard${skipNote}`, async () => {
    const person = await createUserInAccount(service, service.demo.accountId, 'owner');
    const portal = await openPortal(browser!, service);
    try {
      const { page } = portal;
      await page.getByLabel('E-mail').fill(person.email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toMatch(/not right; check both/);
      // Words for people: the refusal points at the page's own link, not at an API path.
      expect(await page.getByRole('alert').textContent()).not.toMatch(/POST \//);
      expect(await page.getByRole('alert').textContent()).toMatch(/Forgot your password\?/);
      await signInThroughPage(page, person.email, person.password);
      // The demo account's three orders and their domains, grouped by order.
      // The h1 shows before the dashboard has answered: wait for the first order's heading.
      await page
        .getByRole('heading', { level: 2, name: /^Order ORD-DEMO/ })
        .first()
        .waitFor();
      expect(await page.getByRole('heading', { level: 2, name: /^Order ORD-DEMO/ }).count()).toBe(3);
      await page.getByLabel('Build state').selectOption('live');
      const rows = page.locator('tbody tr');
      expect(await rows.count()).toBeGreaterThan(0);
      for (const text of await page.locator('tbody tr td:nth-child(2)').allTextContents()) expect(text).toMatch(/^live/);
      expect(portal.offsite).toEqual([]);
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`on a phone the navigation is behind a menu button, and the page never scrolls sideways${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: PHONE });
    try {
      const { page } = portal;
      expect(await page.getByRole('navigation', { name: 'Portal' }).isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })')) as { scroll: number; inner: number };
      expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      await screenshot(page, 'orders-phone-menu');
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`signing out ends the session: the next page load shows the sign-in form${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service);
    try {
      const { page } = portal;
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      // The cookie the browser still held no longer opens a session.
      const cookies = await page.context().cookies();
      const viewer = await page.evaluate(
        async () =>
          (
            await fetch('/graphql', {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1' },
              body: '{"query":"{ viewer { email } }"}',
            })
          ).status,
      );
      expect(viewer).toBe(401);
      expect(cookies.filter((c) => c.name === 'svc_session' && c.value !== '').length).toBe(0);
    } finally {
      await portal.close();
    }
  });
});

describe("the navigation fetches a page's code ahead of the click", () => {
  // Referrals and Domain verification: pages no other test of this file opens, so their chunks have not
  // been fetched from this file's service (its own port, its own cache entries) before.
  it.skipIf(!runBrowserTests)(`when the pointer reaches a link, or the keyboard's focus does${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service);
    try {
      const { page } = portal;
      const navigation = page.getByRole('navigation', { name: 'Portal' });
      const chunk = (name: string) => page.waitForRequest((request) => new RegExp(`/portal/assets/${name}-[\\w-]+\\.js$`).test(request.url()));
      const referrals = chunk('referrals');
      await navigation.getByRole('link', { name: 'Referrals', exact: true }).hover();
      await referrals;
      const verification = chunk('verification');
      await navigation.getByRole('link', { name: 'Domain verification', exact: true }).focus();
      await verification;
      // Still on the dashboard: fetching a page's code opens nothing.
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    } finally {
      await portal.close();
    }
  });
});
