import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, pageSettled, screenshot, signedInPortal } from '../support/portal-browser.js';
import { decryptSecret } from '../../resolvers/secrets/encrypt-secret.js';
import { mailboxSealPurpose } from '../../resolvers/mailboxes/mailbox-passwords.js';
import { expectAxeClean } from '../support/axe.js';

/**
 * The mailboxes of a domain in Chromium: reached from the dashboard's mailbox count, each with its
 * status; "Show credentials" asks first, then shows the passwords (recorded as an event); the Mailboxes
 * page (in the menu) lists each order's domains and downloads the export as CSV; "Reset password" asks first, then shows the new password
 * once. axe-clean at 1280×900 and 390×844.
 */
const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;
let service: TestService;
let browser: Browser | undefined;
let domain: string;

beforeAll(async () => {
  service = await startTestService();
  // The demo account's first live domain: its mailboxes are active at the (sandbox) provider.
  const row = await service.services.db
    .selectFrom('domains')
    .select('domain')
    .where('account_id', '=', service.demo.accountId)
    .where('build_state', '=', 'live')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  domain = row.domain;
  if (runBrowserTests) browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('the mailboxes page', () => {
  it.skipIf(!runBrowserTests)(`lists the mailboxes with their status; credentials only after a confirmation; axe-clean${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
    try {
      const { page } = portal;
      await page.getByRole('link', { name: new RegExp(`mailboxes of ${domain.replaceAll('.', '\\.')}$`) }).click();
      await page.getByRole('heading', { level: 1, name: `Mailboxes of ${domain}` }).waitFor();
      await pageSettled(page);
      const rows = page.locator('section[aria-labelledby="mailboxes-heading"] tbody tr');
      expect(await rows.count()).toBe(3);
      expect(await rows.first().innerText()).toMatch(new RegExp(`alex@${domain.replaceAll('.', '\\.')}\\s+Alex Morgan\\s+active`));
      await expectAxeClean(page);

      await page.getByRole('button', { name: 'Show credentials' }).click();
      expect(await page.getByText(`Show the passwords of every mailbox on ${domain}? This is recorded.`).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(await service.services.db.selectFrom('events').select('id').where('type', '=', 'mailbox.credentials_revealed').execute()).toEqual([]);

      await page.getByRole('button', { name: 'Show credentials' }).click();
      await page.getByRole('button', { name: 'Yes, show them' }).click();
      await page.getByRole('button', { name: 'Hide credentials' }).waitFor();
      const passwords = await page.locator('td[data-label="Password"] code').allInnerTexts();
      expect(passwords).toHaveLength(3);
      for (const p of passwords) expect(p).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(await page.locator('td[data-label="IMAP"]').first().innerText()).toBe('imap.gmail.com:993');
      const events = await service.services.db.selectFrom('events').select('data').where('type', '=', 'mailbox.credentials_revealed').execute();
      expect(events.map((e) => JSON.parse(e.data))).toEqual([expect.objectContaining({ domain, door: 'graphql' })]);
      for (const p of passwords) expect(events[0]!.data).not.toContain(p);
      await expectAxeClean(page);
      await screenshot(page, 'mailboxes-credentials-desktop');
      await page.getByRole('button', { name: 'Hide credentials' }).click();
      expect(await page.locator('td[data-label="Password"]').count()).toBe(0);
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(
    `is axe-clean on a phone; the menu's Mailboxes page lists each order's domains and downloads the export as CSV; Orders leads there${skipNote}`,
    async () => {
      const portal = await signedInPortal(browser!, service, { viewport: PHONE });
      try {
        const { page } = portal;
        await page.goto(`${service.apiUrl}/portal/domains/${domain}/mailboxes`);
        await page.getByRole('heading', { level: 1, name: `Mailboxes of ${domain}` }).waitFor();
        await pageSettled(page);
        await expectAxeClean(page);
        await screenshot(page, 'mailboxes-phone');

        // The export sits beside the mailboxes: the menu's Mailboxes page, reached from the phone's menu.
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Mailboxes', exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'Mailboxes' }).waitFor();
        await pageSettled(page);
        await expectAxeClean(page);
        await expectAxeClean(page, 'names');
        // The order holding the domain: two live domains (3 + 2 active mailboxes), its sequencer Instantly.
        const { order_id } = await service.services.db.selectFrom('domains').select('order_id').where('domain', '=', domain).executeTakeFirstOrThrow();
        const { reference } = await service.services.db.selectFrom('orders').select('reference').where('id', '=', order_id).executeTakeFirstOrThrow();
        const card = page.getByRole('region', { name: new RegExp(`^Order ${reference} `) });
        // Each domain leads to its own mailboxes (credentials, password reset).
        expect(await card.getByRole('link', { name: `3 mailboxes of ${domain}` }).getAttribute('href')).toBe(`/portal/domains/${domain}/mailboxes`);
        const group = card.getByRole('group', { name: 'Export mailboxes with their passwords (CSV)' });
        expect(await group.getByRole('button', { name: 'Instantly (your sequencer)' }).count()).toBe(1);
        const [download] = await Promise.all([page.waitForEvent('download'), group.getByRole('button', { name: /^Instantly/ }).click()]);
        expect(download.suggestedFilename()).toMatch(/-mailboxes-instantly\.csv$/);
        const text = readFileSync((await download.path())!, 'utf8');
        expect(text.split('\r\n')[0]).toBe(
          'Email,First Name,Last Name,IMAP Username,IMAP Password,IMAP Host,IMAP Port,SMTP Username,SMTP Password,SMTP Host,SMTP Port',
        );
        const lines = text.split('\r\n');
        expect(lines).toHaveLength(7);
        expect(lines[1]).toMatch(new RegExp(`^alex@${domain.replaceAll('.', '\\.')},Alex,Morgan,alex@`));

        // An order whose sequencer has a format of its own beyond the three gets a button for it, marked as its own.
        const { subscription_id } = await service.services.db
          .selectFrom('orders')
          .select('subscription_id')
          .where('id', '=', order_id)
          .executeTakeFirstOrThrow();
        const set = await service.api(`/v1/portal/orders/${subscription_id}/sequencer`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sequencer: 'saleshandy' }),
        });
        expect(set.status).toBe(200);
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Mailboxes' }).waitFor();
        await pageSettled(page);
        // The order cards load after the heading: wait for the card's own button, then count.
        await group.getByRole('button', { name: /^Saleshandy/ }).waitFor();
        expect(await group.getByRole('button').count()).toBe(4);
        for (const name of ['IMAP/SMTP (any tool)', 'Instantly', 'Smartlead', 'Saleshandy (your sequencer)'])
          expect(await group.getByRole('button', { name, exact: true }).count(), name).toBe(1);
        const [own] = await Promise.all([page.waitForEvent('download'), group.getByRole('button', { name: /^Saleshandy/ }).click()]);
        expect(own.suggestedFilename()).toMatch(/-mailboxes-saleshandy\.csv$/);
        expect(readFileSync((await own.path())!, 'utf8').split('\r\n')[0]).toBe(
          'First Name,Last Name,Email,SMTP Username,SMTP Password,SMTP Host,SMTP Port,SMTP Encryption,IMAP Username,IMAP Password,IMAP Host,IMAP Port,IMAP Encryption,Daily Sending Limit',
        );
        await expectAxeClean(page);

        // The Orders page no longer holds the export: its order card leads to the order's card on the Mailboxes page, focused.
        await page.goto(`${service.apiUrl}/portal/orders`);
        await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
        await pageSettled(page);
        expect(await page.getByRole('group', { name: 'Export mailboxes with their passwords (CSV)' }).count()).toBe(0);
        await page.getByRole('link', { name: `Mailboxes of order ${reference}, with their credentials and export` }).click();
        await page.getByRole('heading', { level: 1, name: 'Mailboxes' }).waitFor();
        await page.waitForFunction((ref) => document.activeElement?.textContent?.startsWith(`Order ${ref} `) ?? false, reference);
        expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
      } finally {
        await portal.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(
    `resets one mailbox's password after a confirmation and shows the new one once; axe-clean on desktop and phone${skipNote}`,
    async () => {
      const email = `sam@${domain}`;
      const sealed = async () => {
        const row = await service.services.db
          .selectFrom('mailboxes')
          .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
          .select(['mailboxes.id', 'mailboxes.password_sealed'])
          .where('domains.domain', '=', domain)
          .where('mailboxes.local_part', '=', 'sam')
          .executeTakeFirstOrThrow();
        return row.password_sealed === null ? null : decryptSecret(service.services.secretsKey, row.password_sealed, mailboxSealPurpose(row.id));
      };
      const resets = () => service.services.db.selectFrom('events').select('data').where('type', '=', 'mailbox.password_reset').execute();
      for (const viewport of [DESKTOP, PHONE]) {
        const portal = await signedInPortal(browser!, service, { viewport });
        try {
          const { page } = portal;
          await page.goto(`${service.apiUrl}/portal/domains/${domain}/mailboxes`);
          await page.getByRole('heading', { level: 1, name: `Mailboxes of ${domain}` }).waitFor();
          await pageSettled(page);
          const before = await sealed();
          const eventsBefore = (await resets()).length;

          // Asked first; Cancel changes nothing.
          await page.getByRole('button', { name: `Reset password for ${email}` }).click();
          expect(await page.getByText(`Give ${email} a new password? The old one stops working at once.`).isVisible()).toBe(true);
          await expectAxeClean(page);
          await page.getByRole('button', { name: 'Cancel' }).click();
          expect(await page.getByRole('button', { name: 'Yes, reset it' }).count()).toBe(0);
          expect(await sealed()).toBe(before);
          expect(await resets()).toHaveLength(eventsBefore);

          // Confirmed: the new password is shown once, and it is the one now sealed for the mailbox.
          await page.getByRole('button', { name: `Reset password for ${email}` }).click();
          await page.getByRole('button', { name: 'Yes, reset it' }).click();
          const shown = page.locator('.new-password code');
          await shown.waitFor();
          const password = await shown.innerText();
          expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
          expect(password).not.toBe(before);
          expect(await sealed()).toBe(password);
          expect(await page.getByText(`New password of ${email}:`).isVisible()).toBe(true);
          const events = await resets();
          expect(events).toHaveLength(eventsBefore + 1);
          expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ email, domain });
          for (const e of events) expect(e.data).not.toContain(password);
          await expectAxeClean(page);
          await screenshot(page, `mailboxes-reset-${viewport === DESKTOP ? 'desktop' : 'phone'}`);

          // Dismissed, it is gone from the page: nothing shows it again.
          await page.getByRole('button', { name: 'Done, hide it' }).click();
          expect(await page.locator('.new-password').count()).toBe(0);
          expect(await page.content()).not.toContain(password);
        } finally {
          await portal.close();
        }
      }
    },
  );
});
