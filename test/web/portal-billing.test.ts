import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/test-service.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { verificationRecords } from '../support/domain-verification.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, pageSettled, screenshot, signedInPortal } from '../support/portal-browser.js';
import { DEMO_VERIFICATION_TOKEN } from '../../resolvers/orders/verification-record.js';
import { expectAxeClean } from '../support/axe.js';

const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;

/** Publishes the demo account's verification record; UNPROVED publishes nothing at all. */
const PROVED = 'proved-outreach.com';
const UNPROVED = 'unproved-outreach.com';

let dns: TestDnsServer;
let service: TestService;
let browser: Browser | undefined;

beforeAll(async () => {
  // Only the verification page asks DNS; a local server answers for it, as the domain's owner would publish.
  dns = await startTestDnsServer({ records: verificationRecords([PROVED]) });
  service = await startTestService({
    googleTenancy: { probe: async () => 'unknown' },
    // 2 s, not 400 ms: the answer comes from this busy process's own DNS server, and the proof must arrive.
    env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '2000', DNS_TRIES: '1' },
  });
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await dns?.close();
});

async function openFromNav(page: Page, link: string, heading: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: link }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await pageSettled(page);
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })')) as { scroll: number; inner: number };
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

describe('the billing, change request, referral and verification pages on a phone', () => {
  it.skipIf(!runBrowserTests)(`each page fits 390 px without sideways scrolling${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: PHONE });
    try {
      const { page } = portal;
      await openFromNav(page, 'Billing', 'Billing');
      await page.getByRole('heading', { level: 2, name: 'Invoices' }).waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'billing-phone');
      await expectAxeClean(page, 'all');
      await openFromNav(page, 'Change requests', 'Change requests');
      await page.getByRole('heading', { level: 2, name: 'Your requests' }).waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'requests-phone');
      await expectAxeClean(page, 'all');
      await openFromNav(page, 'Referrals', 'Referrals');
      await page.getByRole('heading', { level: 2, name: 'Referred accounts' }).waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'referrals-phone');
      await expectAxeClean(page, 'all');
      await openFromNav(page, 'Domain verification', 'Domain verification');
      await page.getByLabel('Domain', { exact: true }).fill(UNPROVED);
      await page.getByRole('button', { name: 'Check now' }).click();
      await page.getByRole('list', { name: 'Checked domains' }).getByRole('alert').waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'verification-phone');
      await expectAxeClean(page, 'all');
      expect(portal.offsite).toEqual([]);
    } finally {
      await portal.close();
    }
  });
});

describe('billing in Chromium', () => {
  it.skipIf(!runBrowserTests)(
    `shows the past-due invoice, then "Add a card" saves 4242 on the sandbox page and billing shows the card${skipNote}`,
    async () => {
      const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
      try {
        const { page } = portal;
        await openFromNav(page, 'Billing', 'Billing');
        // The demo account's INV-…-0004 is open and a week past its due date; it has no card.
        const banner = page.getByRole('alert');
        await banner.waitFor();
        expect(await banner.textContent()).toMatch(/\$17\.50 is past due on invoice INV-[A-Z0-9-]+-0004 \(due .+\)\. Add a card below/);
        expect(await page.getByText('No card on file').isVisible()).toBe(true);
        const pastDueRow = page.getByRole('row').filter({ hasText: /-0004/ });
        expect(await pastDueRow.getByText('past due', { exact: true }).isVisible()).toBe(true);
        expect(await page.getByRole('row').filter({ hasText: /-0001/ }).getByText('paid', { exact: true }).isVisible()).toBe(true);
        await screenshot(page, 'billing-desktop');
        await expectAxeClean(page, 'all');

        await Promise.all([page.waitForURL(/\/sandbox\/card\?token=/), page.getByRole('button', { name: 'Add a card' }).click()]);
        await page.getByLabel('Card number').fill('4242 4242 4242 4242');
        await page.getByLabel(/Expiry/).fill('12 / 30');
        await page.getByLabel('CVC').fill('123');
        await page.getByLabel('Name on card').fill('Ada Lovelace');
        await Promise.all([page.waitForURL(`${service.apiUrl}/portal/billing?card=saved`), page.getByRole('button', { name: 'Save card' }).click()]);

        await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
        // The notice comes with billing's data (it names what the card paid just now): wait for it.
        const saved = page.getByRole('status').filter({ hasText: 'Your card is saved' });
        await saved.waitFor();
        expect(await saved.textContent()).toMatch(/It paid invoice INV-[A-Z0-9-]+-0004 \(\$17\.50\) just now\./);
        const card = page.locator('.card-on-file');
        await card.waitFor();
        expect((await card.textContent())?.replace(/\s+/g, ' ')).toMatch(/visa ending in 4242, expires 12\/2030/);
        expect(await page.getByRole('button', { name: 'Replace the card' }).isVisible()).toBe(true);
        // Saving a card paid the past-due invoice at once (as Stripe's invoices.pay does): no alert, the row paid.
        await page.getByRole('row').filter({ hasText: /-0004/ }).getByText('paid', { exact: true }).waitFor();
        expect(await page.getByRole('alert').count()).toBe(0);
        await screenshot(page, 'billing-card-saved-desktop');
        await expectAxeClean(page, 'all');
        expect(portal.offsite).toEqual([]);
      } finally {
        await portal.close();
      }
      const onFile = await (await service.api('/v1/payment-method')).json();
      expect(onFile).toMatchObject({ on_file: true, brand: 'visa', last4: '4242' });
    },
  );

  it.skipIf(!runBrowserTests)(`coming back from the card page's cancel link says no card was saved${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
    try {
      const { page } = portal;
      await openFromNav(page, 'Billing', 'Billing');
      await Promise.all([page.waitForURL(/\/sandbox\/card\?token=/), page.getByRole('button', { name: /Add a card|Replace the card/ }).click()]);
      await Promise.all([page.waitForURL(`${service.apiUrl}/portal/billing?card=cancelled`), page.getByRole('link', { name: /Cancel/ }).click()]);
      const notice = page.getByRole('status').filter({ hasText: 'No card was saved' });
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(/left the card page before saving/);
      expect(await page.getByText('Your card is saved').count()).toBe(0);
    } finally {
      await portal.close();
    }
  });
});

describe('change requests in Chromium', () => {
  it.skipIf(!runBrowserTests)(
    `raises a request that the list and GET /v1/portal/requests then show; a refusal shows the service's sentence${skipNote}`,
    async () => {
      const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
      const summary = `Add a DMARC rua address on every domain (${Date.now()}).`;
      try {
        const { page } = portal;
        await openFromNav(page, 'Change requests', 'Change requests');
        // The demo account's request with a reply from support (waited for: the h1 shows before the list).
        await page
          .getByRole('list', { name: /^Replies to request/ })
          .first()
          .waitFor();
        expect(
          await page
            .getByRole('list', { name: /^Replies to request/ })
            .filter({ hasText: 'both domains now forward to the main site' })
            .count(),
        ).toBe(1);

        // Forwarding asks for its own field; a forward_to that is not a domain name is refused by the service.
        await page.getByLabel('Kind').selectOption('forwarding');
        await page.getByLabel('Forward to').fill('not a domain');
        await page.getByLabel('What to change').fill('Point the domains somewhere.');
        await page.getByRole('button', { name: 'Raise request' }).click();
        const refusal = page.locator('form').getByRole('alert');
        await refusal.waitFor();
        expect(await refusal.textContent()).toMatch(/forward_to/);

        await page.getByLabel('Kind').selectOption('dns_change');
        expect(await page.getByLabel('Forward to').count()).toBe(0);
        await page.getByLabel('What to change').fill(summary);
        await page.getByRole('button', { name: 'Raise request' }).click();
        const raised = page.getByRole('status').filter({ hasText: /Request #\d+ raised/ });
        await raised.waitFor();
        expect(await raised.textContent()).toMatch(/a person on our team will answer here/);
        const item = page.getByRole('listitem').filter({ hasText: summary });
        await item.waitFor();
        expect(await item.textContent()).toMatch(/dns change/);
        expect(await item.getByText('open', { exact: true }).isVisible()).toBe(true);
        await screenshot(page, 'requests-desktop');
        await expectAxeClean(page, 'all');
      } finally {
        await portal.close();
      }
      const listed = await (await service.api('/v1/portal/requests')).json();
      const requests = (Array.isArray(listed) ? listed : listed.requests) as { summary: string; kind: string; status: string }[];
      expect(requests.find((r) => r.summary === summary)).toMatchObject({ kind: 'dns_change', status: 'open' });
    },
  );
});

describe('referrals in Chromium', () => {
  it.skipIf(!runBrowserTests)(`shows the referral code, copies the link, and lists the referred accounts${skipNote}`, async () => {
    const referrals = await (await service.api('/v1/portal/referrals')).json();
    expect(referrals.code).toMatch(/^DEMO-/);
    const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
    try {
      const { page } = portal;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.apiUrl });
      await openFromNav(page, 'Referrals', 'Referrals');
      expect(await page.locator('.referral-code').textContent()).toBe(referrals.code);
      expect(await page.getByLabel('Referral link').inputValue()).toBe(referrals.link);
      await page.getByRole('button', { name: 'Copy link' }).click();
      await page.getByRole('status').filter({ hasText: 'copied' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(referrals.link);
      expect(await page.getByRole('row').filter({ hasText: 'Northwind Outreach' }).textContent()).toMatch(/\$25\.00.*paid/);
      expect(await page.getByRole('row').filter({ hasText: 'Contoso Growth' }).textContent()).toMatch(/\$12\.00.*pending/);
      await screenshot(page, 'referrals-desktop');
      await expectAxeClean(page, 'all');
    } finally {
      await portal.close();
    }
  });
});

describe('domain verification in Chromium', () => {
  it.skipIf(!runBrowserTests)(
    `shows the token and the record; "Check now" gives the service's refusal, then verifies a domain that publishes it${skipNote}`,
    async () => {
      const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
      try {
        const { page } = portal;
        await openFromNav(page, 'Domain verification', 'Domain verification');
        expect(await page.getByTestId('verification-token').textContent()).toBe(DEMO_VERIFICATION_TOKEN);
        const record = page.locator('.verification-record');
        expect(await record.textContent()).toContain('_inbox-verification.<domain>');
        expect(await record.textContent()).toContain(`inbox-verification=${DEMO_VERIFICATION_TOKEN}`);
        const verified = page.getByRole('row').filter({ hasText: PROVED });
        expect(await verified.count()).toBe(0);

        const results = page.getByRole('list', { name: 'Checked domains' });
        await page.getByLabel('Domain', { exact: true }).fill(UNPROVED);
        await page.getByRole('button', { name: 'Check now' }).click();
        const refusal = results.getByRole('listitem').filter({ hasText: UNPROVED }).getByRole('alert');
        await refusal.waitFor();
        expect(await refusal.textContent()).toBe(
          `${UNPROVED} is not verified as yours: publish TXT at _inbox-verification.${UNPROVED} with the value "inbox-verification=${DEMO_VERIFICATION_TOKEN}" at your DNS provider, then try again (it stays verified once seen).`,
        );

        // Checking it again (its own button) answers the same, still one row for the domain.
        await page.getByRole('button', { name: `Check again ${UNPROVED}` }).click();
        await page.getByRole('button', { name: 'Check now' }).waitFor();
        expect(await results.getByRole('listitem').count()).toBe(1);

        await page.getByLabel('Domain', { exact: true }).fill(PROVED);
        await page.getByRole('button', { name: 'Check now' }).click();
        const proved = results.getByRole('listitem').filter({ hasText: PROVED }).getByRole('status');
        await proved.waitFor();
        expect(await proved.textContent()).toMatch(new RegExp(`^${PROVED.replaceAll('.', '\\.')} is verified as yours`));
        // The verified list is asked again and now holds it.
        await verified.waitFor();
        await screenshot(page, 'verification-desktop');
        await expectAxeClean(page, 'all');
      } finally {
        await portal.close();
      }
      const listed = await (await service.api('/v1/domains/verification')).json();
      expect(listed.verified_domains.map((v: { domain: string }) => v.domain)).toContain(PROVED);
    },
  );
});
