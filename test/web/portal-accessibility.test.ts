import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, localOnlyContext, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, screenshot, signInThroughPage } from '../support/portal-browser.js';
import { createUserInAccount } from '../support/portal-people.js';
import { countRoutePaths, readPortalRoutes, SIGNED_OUT_PAGES } from '../support/portal-routes.js';

/**
 * Every portal page, signed in and signed out, at 1280×900 and 390×844: no serious or critical
 * axe-core violation (WCAG 2.0 A/AA, 2.1 AA), one h1, no sideways scroll on a phone, a full-page
 * screenshot; and the keyboard path through the frame (skip link, navigation in order, focus on the
 * new page's heading). The signed-in pages come from routes.tsx itself, so a new page is covered.
 */

const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;
const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const ROUTES = readPortalRoutes();
const VIEWPORTS = [
  { name: 'desktop', size: DESKTOP },
  { name: 'phone', size: PHONE },
] as const;

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly helpUrl: string;
  readonly nodes: readonly { readonly target: readonly unknown[]; readonly html: string; readonly failureSummary?: string }[];
}

let service: TestService;
let browser: Browser | undefined;
let person: { email: string; password: string };
/** One signed-in browser context per viewport, so the whole file signs in twice. */
const signedIn = new Map<string, BrowserContext>();

beforeAll(async () => {
  service = await startTestService({ googleTenancy: { probe: async () => 'unknown' } });
  person = await createUserInAccount(service, service.demo.accountId, 'owner');
  if (!runBrowserTests) return;
  browser = await launchChromium();
  for (const viewport of VIEWPORTS) {
    const { context } = await localOnlyContext(browser, { viewport: viewport.size });
    const page = await context.newPage();
    await page.goto(`${service.apiUrl}/portal/`);
    await signInThroughPage(page, person.email, person.password);
    await page.close();
    signedIn.set(viewport.name, context);
  }
});
afterAll(async () => {
  for (const context of signedIn.values()) await context.close();
  await browser?.close();
  await service?.close();
});

/** Opens a portal path and waits until its h1 is there and nothing says "Loading…". */
async function openSettled(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${service.apiUrl}/portal${path}`);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.querySelectorAll('.loading').length === 0, undefined, { timeout: 10_000 });
  return page;
}

/** axe-core's serious and critical violations against WCAG 2.0 A/AA and 2.1 AA, one readable line per element. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a <script>: the portal's Content-Security-Policy (script-src 'self')
  // rightly refuses an inline script, and the check should run under the policy the portal ships.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.impact} ${v.id}: ${v.help} — ${n.target.join(' ')} ${n.html.slice(0, 160)}${n.failureSummary ? `\n    ${n.failureSummary.replaceAll('\n', '\n    ')}` : ''}`,
      ),
    );
}

/** The checks every page gets: a screenshot, then axe, one h1 and no sideways scroll. */
async function checkPage(page: Page, viewport: (typeof VIEWPORTS)[number], shotName: string): Promise<void> {
  await screenshot(page, `${shotName}-${viewport.name}`);
  const violations = await seriousViolations(page);
  expect(violations, `axe-core found serious or critical violations on ${page.url()}:\n${violations.join('\n')}`).toEqual([]);
  expect(await page.locator('h1').count(), 'a page has exactly one h1').toBe(1);
  // No sideways scroll at any width (the phone is the one at risk; a desktop page must not either).
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll, `the page scrolls sideways on a ${viewport.name} (${widths.scroll} px wide in a ${widths.inner} px window)`).toBeLessThanOrEqual(
    widths.inner,
  );
}

describe('the list of portal pages under test', () => {
  it('holds every entry of routes.tsx, the dashboard first', () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(10);
    expect(ROUTES.length).toBe(countRoutePaths());
    expect(ROUTES[0]).toEqual({ path: '/', label: 'Dashboard', name: 'dashboard' });
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });
});

for (const viewport of VIEWPORTS) {
  describe(`signed-in pages at ${viewport.size.width}×${viewport.size.height}`, () => {
    for (const route of ROUTES) {
      it.skipIf(!runBrowserTests)(
        `${route.label} (${route.path}) has no serious axe violation, one h1${viewport.name === 'phone' ? ', no sideways scroll' : ''}${skipNote}`,
        async () => {
          const page = await openSettled(signedIn.get(viewport.name)!, route.path);
          try {
            expect(await page.locator('h1').textContent()).not.toBe('Page not found');
            await checkPage(page, viewport, route.name);
          } finally {
            await page.close();
          }
        },
      );
    }
  });

  describe(`signed-out pages at ${viewport.size.width}×${viewport.size.height}`, () => {
    for (const visit of SIGNED_OUT_PAGES) {
      it.skipIf(!runBrowserTests)(
        `${visit.path} has no serious axe violation, one h1${viewport.name === 'phone' ? ', no sideways scroll' : ''}${skipNote}`,
        async () => {
          const { context, offsite } = await localOnlyContext(browser!, { viewport: viewport.size });
          try {
            const page = await openSettled(context, visit.path);
            await checkPage(page, viewport, visit.name);
            expect(offsite, 'the page asked for nothing off this machine').toEqual([]);
          } finally {
            await context.close();
          }
        },
      );
    }
  });
}

/** What has the keyboard focus, in words a failing assertion can show. */
function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}: ${name}`;
  });
}

describe('the portal by keyboard', () => {
  it.skipIf(!runBrowserTests)(
    `on a desktop, Tab from the top reaches the skip link, then each navigation link in order; Enter on one focuses the new page's h1${skipNote}`,
    async () => {
      const page = await openSettled(signedIn.get('desktop')!, '/');
      try {
        // A page opened by its address keeps the focus at the top of the document.
        expect(await describeFocus(page)).toBe('body');
        await page.keyboard.press('Tab');
        expect(await describeFocus(page)).toBe('a: Skip to content');
        for (const route of ROUTES) {
          await page.keyboard.press('Tab');
          expect(await describeFocus(page)).toBe(`a: ${route.label}`);
        }
        const last = ROUTES[ROUTES.length - 1]!;
        await page.keyboard.press('Enter');
        await page.waitForURL(`**/portal${last.path}`);
        await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
        expect(await describeFocus(page)).toBe(`h1#page-title: ${await page.locator('h1').textContent()}`);
        expect(await page.getByRole('link', { name: last.label }).getAttribute('aria-current')).toBe('page');
      } finally {
        await page.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(`the skip link moves the focus past the navigation to the page${skipNote}`, async () => {
    const page = await openSettled(signedIn.get('desktop')!, '/');
    try {
      await page.keyboard.press('Tab');
      expect(await describeFocus(page)).toBe('a: Skip to content');
      expect(await page.locator('.skip-link').isVisible()).toBe(true);
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
      // The next Tab goes into the page, not back to the navigation.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.getElementById('main')?.contains(document.activeElement) ?? false)).toBe(true);
    } finally {
      await page.close();
    }
  });

  it.skipIf(!runBrowserTests)(
    `on a phone, Tab reaches the skip link, then the menu button; opened, the navigation links follow in order, and Enter on one focuses the new page's h1${skipNote}`,
    async () => {
      const page = await openSettled(signedIn.get('phone')!, '/');
      try {
        await page.keyboard.press('Tab');
        expect(await describeFocus(page)).toBe('a: Skip to content');
        await page.keyboard.press('Tab');
        expect(await describeFocus(page)).toBe('button: Menu');
        expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
        await page.keyboard.press('Enter');
        expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('true');
        // The open menu is part of the page too.
        const violations = await seriousViolations(page);
        expect(violations, `axe-core, phone menu open:\n${violations.join('\n')}`).toEqual([]);
        // axe must leave the focus where it was: one step on and one back lands on the button again.
        await page.keyboard.press('Tab');
        await page.keyboard.press('Shift+Tab');
        expect(await describeFocus(page)).toBe('button: Menu');
        for (const route of ROUTES) {
          await page.keyboard.press('Tab');
          expect(await describeFocus(page)).toBe(`a: ${route.label}`);
        }
        const last = ROUTES[ROUTES.length - 1]!;
        await page.keyboard.press('Enter');
        await page.waitForURL(`**/portal${last.path}`);
        await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
        expect(await describeFocus(page)).toBe(`h1#page-title: ${await page.locator('h1').textContent()}`);
        // The menu closed behind the choice.
        expect(await page.getByRole('navigation', { name: 'Portal' }).isVisible()).toBe(false);
      } finally {
        await page.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(`a table box that scrolls sideways becomes a named tab stop, and leaves the tab order once it fits${skipNote}`, async () => {
    const page = await openSettled(signedIn.get('phone')!, '/settings');
    try {
      // A page's plain <div class="table-wrap"> with a table wider than a phone (but not than a desktop's main column).
      await page.evaluate(() => {
        const wrap = document.createElement('div');
        wrap.className = 'table-wrap';
        wrap.id = 'wide-wrap';
        wrap.innerHTML = '<table style="width: 900px"><tbody><tr><td>wide</td></tr></tbody></table>';
        const card = document.createElement('section');
        card.className = 'card';
        card.innerHTML = '<h2>Wide figures</h2>';
        card.append(wrap);
        document.getElementById('main')!.append(card);
      });
      const wrap = page.locator('#wide-wrap');
      await page.waitForFunction(() => document.getElementById('wide-wrap')?.getAttribute('tabindex') === '0');
      expect(await wrap.getAttribute('role')).toBe('group');
      expect(await wrap.getAttribute('aria-label')).toBe('Wide figures (table, scrolls sideways)');
      // A wrap the page made a tab stop itself keeps its own attributes.
      const ownStops = await page.evaluate(() => [...document.querySelectorAll('.table-wrap[tabindex]:not([data-scroll-stop])')].length);
      await page.setViewportSize(DESKTOP);
      await page.waitForFunction(() => !document.getElementById('wide-wrap')?.hasAttribute('tabindex'));
      expect(await wrap.getAttribute('role')).toBeNull();
      expect(await wrap.getAttribute('aria-label')).toBeNull();
      expect(await page.evaluate(() => [...document.querySelectorAll('.table-wrap[tabindex]:not([data-scroll-stop])')].length)).toBe(ownStops);
    } finally {
      await page.close();
    }
  });
});
