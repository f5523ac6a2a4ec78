import { describe, expect, it } from 'vitest';
import { runBrowserTests } from '../support/browser.js';
import {
  checkPortalPagesAt,
  describeFocus,
  tabThroughNavigationAndOpenLast,
  DESKTOP_VIEWPORT,
  openSettled,
  ROUTES,
  skipNote,
} from '../support/portal-accessibility.js';
import { countRoutePaths } from '../support/portal-routes.js';

/**
 * Every portal page, signed in and signed out, at 1280×900: no serious or critical axe-core
 * violation (WCAG 2.0 A/AA and 2.1 A/AA, and every rule about names), one h1, no sideways scroll, a full-page screenshot; and the
 * keyboard path through the frame (skip link, navigation in order, focus on the new page's heading).
 * The signed-in pages come from routes.tsx itself, so a new page is covered; a live domain's setup and mailboxes pages too. The phone's half is
 * portal-accessibility-phone.test.ts.
 */

describe('the list of portal pages under test', () => {
  it('holds every entry of routes.tsx, the dashboard first', () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(10);
    expect(ROUTES.length).toBe(countRoutePaths());
    expect(ROUTES[0]).toEqual({ path: '/', label: 'Dashboard', name: 'dashboard' });
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });
});

const portal = checkPortalPagesAt(DESKTOP_VIEWPORT);

describe('the portal by keyboard on a desktop', () => {
  it.skipIf(!runBrowserTests)(
    `Tab from the top reaches the skip link, then each navigation link in order; Enter on one focuses the new page's h1${skipNote}`,
    async () => {
      const page = await openSettled(portal.signedIn(), portal.service(), '/');
      try {
        // A page opened by its address keeps the focus at the top of the document.
        expect(await describeFocus(page)).toBe('body');
        await page.keyboard.press('Tab');
        expect(await describeFocus(page)).toBe('a: Skip to content');
        const last = await tabThroughNavigationAndOpenLast(page);
        expect(await page.getByRole('link', { name: last.label }).getAttribute('aria-current')).toBe('page');
      } finally {
        await page.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(`the skip link moves the focus past the navigation to the page${skipNote}`, async () => {
    const page = await openSettled(portal.signedIn(), portal.service(), '/');
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
});
