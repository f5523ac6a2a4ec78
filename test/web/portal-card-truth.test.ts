import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, TEST_ADMIN_SETTINGS, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, openPortal, pageSettled, screenshot, signInThroughPage } from '../support/portal-browser.js';
import { createUserInAccount } from '../support/portal-people.js';
import { expectAxeClean } from '../support/axe.js';
import { runAdminCommand } from '../../admin/run-admin-command.js';
import { findInvoiceStatus, insertInvoices } from '../../db/invoices.js';

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

/** A new account as the operator opens one (not the demo seed), with an owner who signs in. */
async function newAccount(): Promise<{ accountId: number; email: string; password: string }> {
  const made = await runAdminCommand(service.services.db, ['create-account', '--name', `Newco ${Math.random().toString(36).slice(2, 8)}`], TEST_ADMIN_SETTINGS);
  if (!made.ok) throw new Error(made.error);
  const accountId = made.result.account_id as number;
  const owner = await createUserInAccount(service, accountId, 'owner');
  return { accountId, ...owner };
}

async function openBilling(page: Page): Promise<void> {
  await page.goto(`${service.apiUrl}/portal/billing`);
  await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
  await pageSettled(page);
}

async function fillTestCard(page: Page): Promise<void> {
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel(/Expiry/).fill('12 / 30');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
}

describe('the card pages tell a new account what saving a card pays', () => {
  it.skipIf(!runBrowserTests)(
    `names the past-due invoice and its amount on billing and on the card page, then confirms what it paid on billing${skipNote}`,
    async () => {
      const account = await newAccount();
      // A renewal that could not be charged: open, $17.50, a week past due.
      const day = 86_400_000;
      const number = `INV-NEWCO${account.accountId}-0001`;
      await insertInvoices(service.services.db, [
        {
          account_id: account.accountId,
          order_id: null,
          number,
          status: 'open',
          amount_due: 1750,
          amount_paid: 0,
          currency: 'usd',
          issued_at: new Date(Date.now() - 15 * day),
          due_at: new Date(Date.now() - 7 * day),
          paid_at: null,
          processor_invoice_id: null,
        },
      ]);
      const portal = await openPortal(browser!, service, PHONE);
      try {
        const { page } = portal;
        await signInThroughPage(page, account.email, account.password);
        await openBilling(page);
        const due = page.locator('.card-due-now');
        expect(await due.textContent()).toBe(`Saving a card pays now: invoice ${number}, $17.50 (past due).`);
        await expectAxeClean(page, 'all');

        await Promise.all([page.waitForURL(/\/sandbox\/card\?token=/), page.getByRole('button', { name: 'Add a card' }).click()]);
        const pays = page.locator('#due-now');
        expect((await pays.innerText()).replace(/\s+/g, ' ')).toMatch(
          new RegExp(`Saving this card pays \\$17\\.50 now, for what is open on your account: Invoice ${number}: \\$17\\.50`),
        );
        expect(await page.getByText('Nothing is charged').count()).toBe(0);
        expect(await page.getByText(/not charged now/).count()).toBe(0);
        await screenshot(page, 'sandbox-card-pays-now-phone');
        await expectAxeClean(page, 'all');
        await fillTestCard(page);
        await Promise.all([
          page.waitForURL(`${service.apiUrl}/portal/billing?card=saved`),
          page.getByRole('button', { name: 'Save card and pay $17.50' }).click(),
        ]);
        await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
        const saved = page.getByRole('status').filter({ hasText: 'Your card is saved' });
        await saved.waitFor();
        expect(await saved.textContent()).toMatch(new RegExp(`It paid invoice ${number} \\(\\$17\\.50\\) just now\\.`));
        expect(await page.locator('.card-due-now').textContent()).toMatch(/^Nothing is charged when you save a card/);
        await screenshot(page, 'billing-card-paid-phone');
        await expectAxeClean(page, 'all');

        // Replacing the card now pays nothing, and both pages say so.
        await Promise.all([page.waitForURL(/\/sandbox\/card\?token=/), page.getByRole('button', { name: 'Replace the card' }).click()]);
        expect(await page.locator('#due-now').count()).toBe(0);
        expect(await page.getByText('Nothing is charged when you save it.').isVisible()).toBe(true);
        await fillTestCard(page);
        await Promise.all([
          page.waitForURL(`${service.apiUrl}/portal/billing?card=saved`),
          page.getByRole('button', { name: 'Save card', exact: true }).click(),
        ]);
        const again = page.getByRole('status').filter({ hasText: 'Your card is saved' });
        await again.waitFor();
        // The invoice paid minutes ago was paid by the first card; this save charged nothing.
        expect(portal.offsite).toEqual([]);
      } finally {
        await portal.close();
      }
      expect(await findInvoiceStatus(service.services.db, account.accountId, number)).toEqual({ status: 'paid' });
    },
  );

  it.skipIf(!runBrowserTests)(`says nothing is charged, on both pages, to a new account that owes nothing${skipNote}`, async () => {
    const account = await newAccount();
    const portal = await openPortal(browser!, service, DESKTOP);
    try {
      const { page } = portal;
      await signInThroughPage(page, account.email, account.password);
      await openBilling(page);
      expect(await page.locator('.card-due-now').textContent()).toBe('Nothing is charged when you save a card; orders and renewals are charged to it.');
      await Promise.all([page.waitForURL(/\/sandbox\/card\?token=/), page.getByRole('button', { name: 'Add a card' }).click()]);
      expect(await page.getByText('Nothing is charged when you save it.').isVisible()).toBe(true);
      await fillTestCard(page);
      await Promise.all([page.waitForURL(`${service.apiUrl}/portal/billing?card=saved`), page.getByRole('button', { name: 'Save card', exact: true }).click()]);
      const saved = page.getByRole('status').filter({ hasText: 'Your card is saved' });
      await saved.waitFor();
      expect(await saved.textContent()).toMatch(/Nothing was charged when you saved it\./);
      await expectAxeClean(page, 'all');
      expect(portal.offsite).toEqual([]);
    } finally {
      await portal.close();
    }
  });
});
