import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestService, TEST_ADMIN_SETTINGS, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { PHONE, openPortal, pageSettled, signInThroughPage } from '../support/portal-browser.js';
import { createUserInAccount } from '../support/portal-people.js';
import { runAdminCommand } from '../../admin/run-admin-command.js';

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

describe('a new account with no DNS connection, on Domain verification', () => {
  it.skipIf(!runBrowserTests)(`"add one in Settings" opens Settings at DNS connections, with a way back${skipNote}`, async () => {
    const made = await runAdminCommand(
      service.services.db,
      ['create-account', '--name', `Verico ${Math.random().toString(36).slice(2, 8)}`],
      TEST_ADMIN_SETTINGS,
    );
    if (!made.ok) throw new Error(made.error);
    const owner = await createUserInAccount(service, made.result.account_id as number, 'owner');
    const portal = await openPortal(browser!, service, PHONE);
    try {
      const { page } = portal;
      await signInThroughPage(page, owner.email, owner.password);
      await page.goto(`${service.apiUrl}/portal/verification`);
      await page.getByRole('heading', { level: 1, name: 'Domain verification' }).waitFor();
      await pageSettled(page);
      await page.getByRole('link', { name: 'add one in Settings' }).click();
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      await pageSettled(page);
      expect(new URL(page.url()).hash).toBe('#dns-connections');
      // The section, not the top of Settings, is where the person is (it takes the focus once drawn).
      await page.waitForFunction(() => document.activeElement?.id === 'dns-connections');
      await page.locator('#dns-connections').getByRole('link', { name: 'Back to Domain verification' }).click();
      await page.getByRole('heading', { level: 1, name: 'Domain verification' }).waitFor();
      expect(portal.offsite).toEqual([]);
    } finally {
      await portal.close();
    }
  });
});
