import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, pageSettled, screenshot, signedInPortal } from '../support/portal-browser.js';
import { saveCardThroughSandboxPage } from '../orders/support/ordering-fixture.js';
import { expectAxeClean } from '../support/axe.js';

/**
 * "Reinstate" on a cancelled order's card (the Orders page) in Chromium, with the sandbox processor:
 * only a cancelled order has it; it asks first (it charges the card); Cancel changes nothing; without
 * a card the refusal is shown (the portal's words for no_payment_method) and the order stays cancelled; with a card the order is
 * reinstated (a new subscription, the card charged once) and the card says what was charged.
 * axe-clean at 1280×900 and 390×844.
 */
const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;
let service: TestService;
let browser: Browser | undefined;
let order: { id: number; reference: string };

const orderStatus = async () => (await service.services.db.selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status;
const subscriptions = async () => (await service.services.db.selectFrom('sandbox_subscriptions').select('subscription_id').execute()).length;

beforeAll(async () => {
  service = await startTestService();
  // The demo account's first order, cancelled a day ago (as Stripe's webhook would have recorded it).
  const row = await service.services.db
    .selectFrom('orders')
    .select(['id', 'reference'])
    .where('account_id', '=', service.demo.accountId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  order = row;
  await service.services.db
    .updateTable('orders')
    .set({ status: 'cancelled', cancelled_at: new Date(Date.now() - 86_400_000) })
    .where('id', '=', order.id)
    .execute();
  if (runBrowserTests) browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('reinstating a cancelled order in the portal', () => {
  it.skipIf(!runBrowserTests)(
    `only the cancelled order has Reinstate; it asks first; without a card the refusal is shown; axe-clean on a phone${skipNote}`,
    async () => {
      const portal = await signedInPortal(browser!, service, { viewport: PHONE });
      try {
        const { page } = portal;
        await page.goto(`${service.apiUrl}/portal/orders`);
        await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
        await pageSettled(page);
        const buttons = page.getByRole('button', { name: /^Reinstate order / });
        expect(await buttons.count()).toBe(1);
        expect(await buttons.first().getAttribute('aria-label')).toBe(`Reinstate order ${order.reference}`);
        await expectAxeClean(page);

        const before = await subscriptions();
        await buttons.first().click();
        expect(await page.getByText(`Reinstate order ${order.reference}? A new subscription starts and`).isVisible()).toBe(true);
        await expectAxeClean(page);
        await page.getByRole('button', { name: 'Cancel' }).click();
        expect(await orderStatus()).toBe('cancelled');

        // The demo account has no card yet: the refusal in the portal's words for people (the API's names its calls), nothing charged.
        await page.getByRole('button', { name: `Reinstate order ${order.reference}` }).click();
        await page.getByRole('button', { name: 'Yes, reinstate and charge' }).click();
        const refusal = page.getByText('No card is on file, so nothing was charged. Add a card on the Billing page, then try again.');
        await refusal.waitFor();
        expect(await orderStatus()).toBe('cancelled');
        expect(await subscriptions()).toBe(before);
        await screenshot(page, 'orders-reinstate-refused-phone');
      } finally {
        await portal.close();
      }
    },
    120_000,
  );

  it.skipIf(!runBrowserTests)(
    `with a card on file: reinstated, charged once, the card says so and the button is gone; axe-clean${skipNote}`,
    async () => {
      await saveCardThroughSandboxPage(service, '4242424242424242');
      const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
      try {
        const { page } = portal;
        await page.goto(`${service.apiUrl}/portal/orders`);
        await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
        await pageSettled(page);
        const before = await subscriptions();
        await page.getByRole('button', { name: `Reinstate order ${order.reference}` }).click();
        const yes = page.getByRole('button', { name: 'Yes, reinstate and charge' });
        // A double click sends one reinstatement (one key per confirmation; the second click finds it busy or gone).
        await yes.dblclick();
        await page.getByText(new RegExp(`Order ${order.reference} is reinstated: \\$[0-9.,]+ was charged to your card`)).waitFor();
        await pageSettled(page);
        expect(await orderStatus()).toBe('active');
        expect(await subscriptions()).toBe(before + 1);
        expect(await page.getByRole('button', { name: /^Reinstate order / }).count()).toBe(0);
        await expectAxeClean(page);
        await screenshot(page, 'orders-reinstated-desktop');
      } finally {
        await portal.close();
      }
    },
    120_000,
  );
});
