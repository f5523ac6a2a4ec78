import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, TEST_ADMIN_SETTINGS, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON, localOnlyContext } from '../support/browser.js';
import { DESKTOP, PHONE, pageSettled, signInThroughPage } from '../support/portal-browser.js';
import { createUserInAccount } from '../support/portal-people.js';
import { expectAxeClean } from '../support/axe.js';
import { runAdminCommand } from '../../admin/run-admin-command.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';

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

/** A new account as the operator opens one (not the demo seed): an owner who signs in, and a key a program uses. */
async function newAccount(): Promise<{ email: string; password: string; key: string }> {
  const made = await runAdminCommand(
    service.services.db,
    ['create-account', '--name', `Cardco ${Math.random().toString(36).slice(2, 8)}`],
    TEST_ADMIN_SETTINGS,
  );
  if (!made.ok) throw new Error(made.error);
  const accountId = made.result.account_id as number;
  const owner = await createUserInAccount(service, accountId, 'owner');
  const { key } = await createApiKey(service.services.db, accountId, ['read', 'orders:place']);
  return { ...owner, key };
}

/** What a program does: POST /v1/payment-method/setup-link with the body it chose; answers the link's url. */
async function setupLink(key: string, body: Record<string, string>): Promise<string> {
  const answer = await service.api('/v1/payment-method/setup-link', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { url: string }).url;
}

async function saveTestCard(page: Page, landsOn: string | RegExp): Promise<void> {
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await Promise.all([page.waitForURL(landsOn), page.getByRole('button', { name: 'Save card', exact: true }).click()]);
}

describe('after saving a card the person lands on a page that says so', () => {
  it.skipIf(!runBrowserTests)(`without a success_url: the portal's Card saved page, then billing once signed in${skipNote}`, async () => {
    const account = await newAccount();
    const { context, offsite } = await localOnlyContext(browser!, { viewport: PHONE });
    try {
      const page = await context.newPage();
      await page.goto(await setupLink(account.key, {}));
      await saveTestCard(page, `${service.apiUrl}/portal/card-saved`);
      await page.getByRole('heading', { level: 1, name: 'Card saved' }).waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'Your card is saved' }).count()).toBe(1);
      await expectAxeClean(page, 'all');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

      await page.getByRole('link', { name: 'Sign in to see your billing' }).click();
      // The sign-in page, at /portal/billing?card=saved: signing in there opens Billing itself.
      await page.getByLabel('E-mail').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
      await pageSettled(page);
      expect(new URL(page.url()).search).toBe('?card=saved');
      const saved = page.getByRole('status').filter({ hasText: 'Your card is saved' });
      expect(await saved.textContent()).toMatch(/Nothing was charged when you saved it\./);
      expect(offsite).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!runBrowserTests)(
    `with a success_url no one can reach (https://example.com/...): billing confirms it, nothing goes off the machine${skipNote}`,
    async () => {
      const account = await newAccount();
      const { context, offsite } = await localOnlyContext(browser!, { viewport: DESKTOP });
      try {
        const page = await context.newPage();
        await page.goto(`${service.apiUrl}/portal/`);
        await signInThroughPage(page, account.email, account.password);
        await page.goto(await setupLink(account.key, { success_url: 'https://example.com/saved', cancel_url: 'https://example.com/cancel' }));
        // The cancel link on the card page is the portal's billing page too.
        expect(await page.getByRole('link', { name: 'Cancel and go back' }).getAttribute('href')).toBe(`${service.apiUrl}/portal/billing?card=cancelled`);
        await saveTestCard(page, `${service.apiUrl}/portal/billing?card=saved`);
        await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
        await pageSettled(page);
        await page.getByRole('status').filter({ hasText: 'Your card is saved' }).waitFor();
        await expectAxeClean(page, 'all');
        expect(offsite).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
