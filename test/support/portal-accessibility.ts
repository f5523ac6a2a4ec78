import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestService, type TestService } from './test-service.js';
import { runBrowserTests, launchChromium, localOnlyContext, NO_CHROMIUM_REASON } from './browser.js';
import { DESKTOP, PHONE, screenshot, signInThroughPage } from './portal-browser.js';
import { createUserInAccount } from './portal-people.js';
import { readPortalRoutes, SIGNED_OUT_PAGES, type PortalRouteEntry } from './portal-routes.js';
import { expectAxeClean } from './axe.js';

/**
 * The accessibility checks of every portal page at one viewport, shared by
 * test/web/portal-accessibility-desktop.test.ts and -phone.test.ts. The two viewports are two files
 * so that they run side by side: each page waits on Chromium far more than it uses the test process.
 */

export const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;
export const ROUTES = readPortalRoutes();

export interface PortalViewport {
  readonly name: 'desktop' | 'phone';
  readonly size: { readonly width: number; readonly height: number };
}
export const DESKTOP_VIEWPORT: PortalViewport = { name: 'desktop', size: DESKTOP };
export const PHONE_VIEWPORT: PortalViewport = { name: 'phone', size: PHONE };

/** Opens a portal path and waits until its h1 is there and nothing says "Loading…". */
export async function openSettled(context: BrowserContext, service: TestService, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${service.apiUrl}/portal${path}`);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.querySelectorAll('.loading').length === 0, undefined, { timeout: 10_000 });
  return page;
}

/** What has the keyboard focus, in words a failing assertion can show. */
export function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}: ${name}`;
  });
}

/**
 * From the element before the navigation's first link: Tab through every link in routes.tsx's order,
 * then Enter on the last, and wait for the new page to put the focus on its h1. Returns that route.
 */
export async function tabThroughNavigationAndOpenLast(page: Page): Promise<PortalRouteEntry> {
  for (const route of ROUTES) {
    await page.keyboard.press('Tab');
    expect(await describeFocus(page)).toBe(`a: ${route.label}`);
  }
  const last = ROUTES[ROUTES.length - 1]!;
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/portal${last.path}`);
  await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
  expect(await describeFocus(page)).toBe(`h1#page-title: ${await page.locator('h1').textContent()}`);
  return last;
}

/** The checks every page gets: a screenshot, then axe, one h1 and no sideways scroll. */
async function checkPage(page: Page, viewport: PortalViewport, shotName: string): Promise<void> {
  await screenshot(page, `${shotName}-${viewport.name}`);
  await expectAxeClean(page);
  // Names by every rule about them (best practices too): a button's spoken name holds its visible text.
  await expectAxeClean(page, 'names');
  expect(await page.locator('h1').count(), 'a page has exactly one h1').toBe(1);
  // No sideways scroll at any width (the phone is the one at risk; a desktop page must not either).
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll, `the page scrolls sideways on a ${viewport.name} (${widths.scroll} px wide in a ${widths.inner} px window)`).toBeLessThanOrEqual(
    widths.inner,
  );
}

/** The signed-in pages of one domain (app.tsx's routes outside the navigation), with their screenshot names. */
export const DOMAIN_PAGES = [
  { label: 'The setup page', name: 'domain-setup', path: (domain: string) => `/domains/${domain}/setup` },
  { label: 'The mailboxes page', name: 'domain-mailboxes', path: (domain: string) => `/domains/${domain}/mailboxes` },
] as const;

/** A value beforeAll set up, or a sentence saying which setup did not run. */
function setUp<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} was not set up: see the beforeAll error above.`);
  return value;
}

export interface PortalAtViewport {
  /** The service the pages come from (started in the suite's beforeAll). */
  service(): TestService;
  /** A browser context signed in as an owner of the demo account, at this viewport. */
  signedIn(): BrowserContext;
}

/**
 * Registers, in the calling test file, a service, Chromium and one signed-in context at `viewport`,
 * and one test per signed-in page (every entry of routes.tsx) and per signed-out page.
 */
export function checkPortalPagesAt(viewport: PortalViewport): PortalAtViewport {
  let service: TestService | undefined;
  let browser: Browser | undefined;
  let signedIn: BrowserContext | undefined;
  let liveDomain: string | undefined;

  beforeAll(async () => {
    service = await startTestService({ googleTenancy: { probe: async () => 'unknown' } });
    // The demo account's first live domain: its setup and mailboxes pages (not in the navigation) are pages too.
    const live = await service.services.db
      .selectFrom('domains')
      .select('domain')
      .where('account_id', '=', service.demo.accountId)
      .where('build_state', '=', 'live')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    liveDomain = live.domain;
    // A DNS connection, so the setup page shows its "DNS connection" picker (once 438 px wide on a 390 px phone).
    const connection = await service.api('/v1/dns-connections', {
      method: 'POST',
      key: service.demo.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'cloudflare', label: 'Our Cloudflare account for every sending domain', api_token: 'cf_portal_pages_0123456789abcdef' }),
    });
    if (connection.status !== 200) throw new Error(`the DNS connection was refused: ${connection.status} ${await connection.text()}`);
    const person = await createUserInAccount(service, service.demo.accountId, 'owner');
    if (!runBrowserTests) return;
    browser = await launchChromium();
    const { context } = await localOnlyContext(browser, { viewport: viewport.size });
    const page = await context.newPage();
    await page.goto(`${service.apiUrl}/portal/`);
    await signInThroughPage(page, person.email, person.password);
    await page.close();
    signedIn = context;
  });
  afterAll(async () => {
    await signedIn?.close();
    await browser?.close();
    await service?.close();
  });

  const suite: PortalAtViewport = {
    service: () => setUp(service, 'The service'),
    signedIn: () => setUp(signedIn, 'The signed-in browser context'),
  };
  const scrollNote = viewport.name === 'phone' ? ', no sideways scroll' : '';

  describe(`signed-in pages at ${viewport.size.width}×${viewport.size.height}`, () => {
    for (const route of ROUTES) {
      it.skipIf(!runBrowserTests)(`${route.label} (${route.path}) has no serious axe violation, one h1${scrollNote}${skipNote}`, async () => {
        const page = await openSettled(suite.signedIn(), suite.service(), route.path);
        try {
          expect(await page.locator('h1').textContent()).not.toBe('Page not found');
          await checkPage(page, viewport, route.name);
        } finally {
          await page.close();
        }
      });
    }
  });

  describe(`a domain's pages at ${viewport.size.width}×${viewport.size.height}`, () => {
    for (const page of DOMAIN_PAGES) {
      it.skipIf(!runBrowserTests)(`${page.label} of a live domain has no serious axe violation, one h1${scrollNote}${skipNote}`, async () => {
        const domain = setUp(liveDomain, 'The live domain');
        const opened = await openSettled(suite.signedIn(), suite.service(), page.path(domain));
        try {
          expect(await opened.locator('h1').textContent()).not.toBe('Page not found');
          await checkPage(opened, viewport, page.name);
        } finally {
          await opened.close();
        }
      });
    }
  });

  describe(`signed-out pages at ${viewport.size.width}×${viewport.size.height}`, () => {
    for (const visit of SIGNED_OUT_PAGES) {
      it.skipIf(!runBrowserTests)(`${visit.path} has no serious axe violation, one h1${scrollNote}${skipNote}`, async () => {
        const { context, offsite } = await localOnlyContext(setUp(browser, 'Chromium'), { viewport: viewport.size });
        try {
          const page = await openSettled(context, suite.service(), visit.path);
          await checkPage(page, viewport, visit.name);
          expect(offsite, 'the page asked for nothing off this machine').toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  });

  return suite;
}
