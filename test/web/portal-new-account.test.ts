import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestService, TEST_ADMIN_SETTINGS, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, openPortal, pageSettled, screenshot, signInThroughPage } from '../support/portal-browser.js';
import { createUserInAccount } from '../support/portal-people.js';
import { expectAxeClean } from '../support/axe.js';
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

/** A new account as the operator opens one (not the demo seed). */
async function newAccount(): Promise<number> {
  const made = await runAdminCommand(service.services.db, ['create-account', '--name', `Newco ${Math.random().toString(36).slice(2, 8)}`], TEST_ADMIN_SETTINGS);
  if (!made.ok) throw new Error(made.error);
  return made.result.account_id as number;
}

describe('a new account in the portal', () => {
  it.skipIf(!runBrowserTests)(`a member sees on New order's first step that an owner places orders, and whom to ask${skipNote}`, async () => {
    const accountId = await newAccount();
    const owner = await createUserInAccount(service, accountId, 'owner');
    const member = await createUserInAccount(service, accountId, 'member');
    const portal = await openPortal(browser!, service, PHONE);
    try {
      const { page } = portal;
      await signInThroughPage(page, member.email, member.password);
      await page.goto(`${service.apiUrl}/portal/new-order`);
      await page.getByRole('heading', { level: 2, name: /Step 1 of 3/ }).waitFor();
      await pageSettled(page);
      const notice = page.getByRole('status').filter({ hasText: 'An owner places orders' });
      expect(await notice.textContent()).toMatch(
        /You are a member of Newco \w+: you can build an order here and see its price, but placing it \(which charges the card\) is for an owner\. Ask the owner:/,
      );
      expect(await notice.getByRole('link', { name: owner.email }).getAttribute('href')).toMatch(new RegExp(`^mailto:${owner.email}\\?subject=`));
      // The card warning is for whoever places: a member cannot add a card.
      expect(await page.getByText('No card is on file').count()).toBe(0);
      await screenshot(page, 'new-order-member-phone');
      await expectAxeClean(page, 'all');
      expect(portal.offsite).toEqual([]);
    } finally {
      await portal.close();
    }

    const ownerPortal = await openPortal(browser!, service, DESKTOP);
    try {
      const { page } = ownerPortal;
      await signInThroughPage(page, owner.email, owner.password);
      await page.goto(`${service.apiUrl}/portal/new-order`);
      await page.getByRole('heading', { level: 2, name: /Step 1 of 3/ }).waitFor();
      await pageSettled(page);
      expect(await page.getByText('An owner places orders').count()).toBe(0);
      expect(await page.getByText('No card is on file').isVisible()).toBe(true);
    } finally {
      await ownerPortal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`the bulk add takes one domain per line and says, in words, which lines are not domains${skipNote}`, async () => {
    const accountId = await newAccount();
    const owner = await createUserInAccount(service, accountId, 'owner');
    const portal = await openPortal(browser!, service, PHONE);
    try {
      const { page } = portal;
      await signInThroughPage(page, owner.email, owner.password);
      await page.goto(`${service.apiUrl}/portal/new-order`);
      await page.getByRole('heading', { level: 2, name: /Step 1 of 3/ }).waitFor();
      await pageSettled(page);
      const plan = page.getByRole('radio').first();
      await plan.check();
      await page.getByRole('button', { name: 'Continue to domains' }).click();
      await page.getByText('Add many domains at once').click();
      await page.getByLabel('Domains, one per line').fill('good-one.com\nWes, Ann\nwes@mail.com\nfirst-list.com, second-list.com\nwes');
      await page.getByRole('button', { name: 'Add these domains' }).click();
      const refused = page.getByRole('alert').filter({ hasText: 'were not added' });
      await refused.waitFor();
      expect(await refused.getByRole('listitem').allTextContents()).toEqual([
        'Line 2, “Wes, Ann”, is not a list of domain names: put one domain on each line.',
        'Line 3, “wes@mail.com”, is an e-mail address, not a domain: use the part after the @ (mail.com).',
        'Line 5, “wes”, is not a domain name: a domain has a dot, such as example.com.',
      ]);
      expect(await refused.textContent()).not.toMatch(/domains\[|"domain"/);
      // The lines that were not domains stay in the box; the three domains became rows.
      expect(await page.getByLabel('Domains, one per line').inputValue()).toBe('Wes, Ann\nwes@mail.com\nwes');
      const names = page.getByRole('group', { name: /^Domain \d+$/ }).getByLabel('Domain name');
      expect(await names.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual([
        'good-one.com',
        'first-list.com',
        'second-list.com',
      ]);
      expect(await page.getByRole('status').filter({ hasText: 'Added 3 domains' }).isVisible()).toBe(true);
      await screenshot(page, 'new-order-bulk-not-domains-phone');
      await expectAxeClean(page, 'all');
      expect(portal.offsite).toEqual([]);
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`"Send test event" beside a webhook queues a webhook.test delivery, listed under it${skipNote}`, async () => {
    const accountId = await newAccount();
    const owner = await createUserInAccount(service, accountId, 'owner');
    const portal = await openPortal(browser!, service, DESKTOP);
    try {
      const { page } = portal;
      await signInThroughPage(page, owner.email, owner.password);
      await page.goto(`${service.apiUrl}/portal/settings`);
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      await pageSettled(page);
      const section = page.getByRole('region', { name: 'Webhooks' });
      await section.getByLabel('Address').fill('https://93.184.215.14/hooks/newco');
      await section.getByRole('button', { name: 'Add endpoint' }).click();
      await section.getByText('https://93.184.215.14/hooks/newco', { exact: true }).waitFor();
      await section.getByRole('button', { name: 'I have stored it' }).click();
      const endpoint = section.locator('li.webhook').filter({ hasText: 'https://93.184.215.14/hooks/newco' });
      await endpoint.getByRole('button', { name: 'Send test event to https://93.184.215.14/hooks/newco' }).click();
      const sent = endpoint.getByRole('status').filter({ hasText: 'A test event is on its way' });
      await sent.waitFor();
      // The deliveries open by themselves and list the test event the service queued.
      await endpoint.getByRole('table').getByText('webhook.test', { exact: true }).waitFor();
      await expectAxeClean(page);
      expect(portal.offsite).toEqual([]);
    } finally {
      await portal.close();
    }
  });
});
