import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { outboxMailsTo } from '../auth/auth-support.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, openPortal, pageSettled, screenshot } from '../support/portal-browser.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { expectAxeClean } from '../support/axe.js';

const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;

let service: TestService;
let browser: Browser | undefined;

beforeAll(async () => {
  service = await startTestService({
    env: { ALERT_OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'portal-referrals-outbox-')), STRIPE_SECRET_KEY: '' },
    rateLimits: { signInAddress: 100 },
    googleTenancy: { probe: async () => 'unknown' },
  });
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** The confirm-sign-up link last mailed to `to`, moved onto this test's listener (the mail names the configured API_URL). */
function confirmLinkMailedTo(to: string): string {
  const link = /https?:\/\/[^\s/]+(\/portal\/confirm-sign-up\?token=[A-Za-z0-9_-]+)/.exec(outboxMailsTo(service, to).at(-1) ?? '')?.[1];
  if (!link) throw new Error(`no confirm-sign-up link mailed to ${to}`);
  return `${service.apiUrl}${link}`;
}

/** A referrer: a new account (no demo data) and its code, read through REST. */
async function newReferrer(name: string): Promise<{ accountId: number; code: string; link: string }> {
  const account = await service.services.db.insertInto('accounts').values({ name }).returning('id').executeTakeFirstOrThrow();
  const { key } = await createApiKey(service.services.db, account.id, ['read']);
  const referrals = (await (await service.api('/v1/portal/referrals', { key })).json()) as { code: string; link: string };
  return { accountId: account.id, ...referrals };
}

describe('a referral link in Chromium', () => {
  it.skipIf(!runBrowserTests)(
    `the link opens sign-up with the code filled in; the account opened through it is recorded as referred, and its own referrals page explains the terms${skipNote}`,
    async () => {
      const referrer = await newReferrer('Referring Agency');
      const { pathname, search } = new URL(referrer.link);
      const portal = await openPortal(browser!, service, DESKTOP, `${pathname.replace(/^\/portal/, '')}${search}`);
      try {
        const { page } = portal;
        await page.getByRole('heading', { level: 1, name: 'Create an account' }).waitFor();
        expect(await page.getByLabel('Referral code (optional)').inputValue()).toBe(referrer.code);
        await expectAxeClean(page, 'wcag', 'sign-up with a referral code');
        await page.getByLabel('Company or agency name').fill('Referred Agency');
        await page.getByLabel('E-mail').fill('referred-in-browser@example.com');
        await page.getByLabel('Password').fill('referred person password');
        await page.getByRole('button', { name: 'Create the account' }).click();
        await page.getByRole('heading', { level: 1, name: 'Check your e-mail' }).waitFor();
        await page.goto(confirmLinkMailedTo('referred-in-browser@example.com'));
        await page.getByRole('button', { name: 'Open the account' }).click();
        await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

        const opened = await service.services.db
          .selectFrom('accounts')
          .select('referred_by_account_id')
          .where('name', '=', 'Referred Agency')
          .executeTakeFirstOrThrow();
        expect(opened.referred_by_account_id).toBe(referrer.accountId);

        // The new account's own code, link and the terms in words.
        await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Referrals' }).click();
        await page.getByRole('heading', { level: 1, name: 'Referrals' }).waitFor();
        await pageSettled(page);
        const code = await page.locator('.referral-code').textContent();
        expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
        expect(code).not.toBe(referrer.code);
        expect(await page.getByLabel('Referral link').inputValue()).toMatch(new RegExp(`/portal/sign-up\\?ref=${code}$`));
        const terms = page.getByRole('region', { name: 'How referrals work' });
        expect(await terms.textContent()).toContain('you earn 20% of what was charged');
        expect(await page.getByText('Your account has no referral code yet.').count()).toBe(0);
        await expectAxeClean(page, 'wcag', 'referrals of a new account');
        await screenshot(page, 'referrals-new-account-desktop');
      } finally {
        await portal.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(`an unknown code is named on the page; cleared, the sign-up goes through without one${skipNote}`, async () => {
    const portal = await openPortal(browser!, service, DESKTOP, '/sign-up?ref=NOSUCH23');
    try {
      const { page } = portal;
      await page.getByLabel('Company or agency name').fill('Unreferred Agency');
      await page.getByLabel('E-mail').fill('unreferred@example.com');
      await page.getByLabel('Password').fill('unreferred password');
      await page.getByRole('button', { name: 'Create the account' }).click();
      await page.getByText('No account has the referral code "NOSUCH23"').waitFor();
      await page.getByLabel('Referral code (optional)').fill('');
      await page.getByRole('button', { name: 'Create the account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Check your e-mail' }).waitFor();
      expect(outboxMailsTo(service, 'unreferred@example.com')).toHaveLength(1);
    } finally {
      await portal.close();
    }
  });
});
