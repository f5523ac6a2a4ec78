import { describe, expect, it } from 'vitest';
import { runBrowserTests } from '../support/browser.js';
import { DESKTOP } from '../support/portal-browser.js';
import { checkPortalPagesAt, describeFocus, tabThroughNavigationAndOpenLast, openSettled, PHONE_VIEWPORT, skipNote } from '../support/portal-accessibility.js';
import { expectAxeClean } from '../support/axe.js';

/**
 * Every portal page, signed in and signed out, at 390×844: no serious or critical axe-core
 * violation (WCAG 2.0 A/AA and 2.1 A/AA, and every rule about names), one h1, no sideways scroll, a full-page screenshot; and the
 * keyboard path through the phone's menu. The desktop's half is portal-accessibility-desktop.test.ts.
 */

const portal = checkPortalPagesAt(PHONE_VIEWPORT);

describe('the portal by keyboard on a phone', () => {
  it.skipIf(!runBrowserTests)(
    `Tab reaches the skip link, then the menu button; opened, the navigation links follow in order, and Enter on one focuses the new page's h1${skipNote}`,
    async () => {
      const page = await openSettled(portal.signedIn(), portal.service(), '/');
      try {
        await page.keyboard.press('Tab');
        expect(await describeFocus(page)).toBe('a: Skip to content');
        await page.keyboard.press('Tab');
        expect(await describeFocus(page)).toBe('button: Menu');
        expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
        await page.keyboard.press('Enter');
        expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('true');
        // The open menu is part of the page too.
        await expectAxeClean(page, 'wcag', 'the phone menu, open');
        // axe must leave the focus where it was: one step on and one back lands on the button again.
        await page.keyboard.press('Tab');
        await page.keyboard.press('Shift+Tab');
        expect(await describeFocus(page)).toBe('button: Menu');
        await tabThroughNavigationAndOpenLast(page);
        // The menu closed behind the choice.
        expect(await page.getByRole('navigation', { name: 'Portal' }).isVisible()).toBe(false);
      } finally {
        await page.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(`a table box that scrolls sideways becomes a named tab stop, and leaves the tab order once it fits${skipNote}`, async () => {
    const page = await openSettled(portal.signedIn(), portal.service(), '/settings');
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
