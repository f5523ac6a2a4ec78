import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, pageSettled, screenshot, signedInPortal } from '../support/portal-browser.js';
import { saveCardThroughSandboxPage } from '../orders/support/ordering-fixture.js';
import { expectAxeClean } from '../support/axe.js';

const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;

let service: TestService;
let browser: Browser | undefined;

beforeAll(async () => {
  service = await startTestService({ googleTenancy: { probe: async () => 'unknown' }, env: { STRIPE_SECRET_KEY: '' } });
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

async function openFromNav(page: Page, link: string, heading: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: link }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await pageSettled(page);
}

/** Neither the page nor any table box scrolls sideways: every element fits inside 390 px. */
async function nothingClipped(page: Page): Promise<void> {
  const widths = (await page.evaluate(`({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
    wraps: [...document.querySelectorAll('.table-wrap')].map((w) => w.scrollWidth - w.clientWidth),
  })`)) as { scroll: number; inner: number; wraps: number[] };
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
  expect(widths.wraps.length).toBeGreaterThan(0);
  for (const overflow of widths.wraps) expect(overflow).toBeLessThanOrEqual(0);
}

describe('dashboard and analytics on a phone (390 px)', () => {
  it.skipIf(!runBrowserTests)(`tables become stacked rows, labelled per cell, with no sideways scroll, axe clean${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: PHONE });
    try {
      const { page } = portal;
      // The account's name stays in the frame on a phone.
      await expect(page.locator('header .account').innerText()).resolves.toBe('Demo Agency');
      expect(await page.locator('header .account').isVisible()).toBe(true);
      await nothingClipped(page);
      const cell = page.locator('table.stack-on-phone td[data-label="Mailboxes"]').first();
      expect(await cell.evaluate((td) => getComputedStyle(td).display)).toBe('block');
      expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Mailboxes: "');
      await screenshot(page, 'dashboard-phone-stacked');
      await expectAxeClean(page, 'all');

      await openFromNav(page, 'Analytics', 'Analytics');
      // The checks' figures (the DMARC reports section below has tables of its own).
      const figures = page.locator('table.figures:has(caption#figures-caption)');
      await figures.waitFor();
      await nothingClipped(page);
      const row = figures.locator('tbody tr').first();
      expect(await row.evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
      await screenshot(page, 'analytics-phone-stacked');
      await expectAxeClean(page, 'all');
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`on a desktop the same tables stay tables${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
    try {
      const cell = portal.page.locator('table.stack-on-phone td[data-label="Mailboxes"]').first();
      expect(await cell.evaluate((td) => getComputedStyle(td).display)).toBe('table-cell');
    } finally {
      await portal.close();
    }
  });
});

describe('an empty catalogue on the new order page', () => {
  it.skipIf(!runBrowserTests)(`offers "Ask for a plan", which reaches our team and says what happens next${skipNote}`, async () => {
    // An account made before default plans existed (or with DEFAULT_PLAN_SKUS=none): no plan at all.
    const account = await service.services.db.insertInto('accounts').values({ name: 'Empty Catalogue Co' }).returning('id').executeTakeFirstOrThrow();
    const portal = await signedInPortal(browser!, service, { accountId: account.id });
    try {
      const { page } = portal;
      await openFromNav(page, 'New order', 'New order');
      await page.getByText(/not on a plan yet/).waitFor();
      await page.getByLabel('What would you like to order?').fill('Twenty Google inboxes a month, please.');
      await page.getByRole('button', { name: 'Ask for a plan' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /Sent to our team/ })
        .waitFor();
      await expectAxeClean(page, 'all');
      await screenshot(page, 'new-order-ask-for-plan');
    } finally {
      await portal.close();
    }
  });
});

describe('pay now on the billing page', () => {
  it.skipIf(!runBrowserTests)(`shows a declined card's reason, then pays the past-due invoice and the banner goes${skipNote}`, async () => {
    const account = await service.seedAccount();
    // A card that is declined when charged: saving it tries the past-due invoice, which stays open.
    await saveCardThroughSandboxPage(service, '4000 0000 0000 0341', account.key);
    const portal = await signedInPortal(browser!, service, { accountId: account.accountId });
    try {
      const { page } = portal;
      await openFromNav(page, 'Billing', 'Billing');
      const banner = page.locator('.billing-past-due');
      await banner.waitFor();
      await page.getByText('Details').first().click();
      await page.getByRole('button', { name: 'Pay now' }).click();
      await page
        .getByText(/declined/)
        .first()
        .waitFor();
      await screenshot(page, 'billing-pay-now-declined');
      await expectAxeClean(page, 'all');

      // The bank now accepts the card (the sandbox card's outcome), and pay now goes through.
      await service.database.raw.query({
        text: "update sandbox_cards set outcome = 'charge' where customer_id = $1",
        values: [`sbx_cus_${account.accountId}`],
      });
      await page.getByRole('button', { name: 'Pay now' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /Paid 1 invoice/ })
        .waitFor();
      await banner.waitFor({ state: 'detached' });
      await screenshot(page, 'billing-pay-now-paid');
      const billing = await (await service.api('/v1/portal/billing', { key: account.key })).json();
      expect(billing.past_due_amount).toBe(0);
    } finally {
      await portal.close();
    }
  });
});
