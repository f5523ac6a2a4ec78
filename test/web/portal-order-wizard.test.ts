import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { PHONE, pageSettled, screenshot, signedInPortal } from '../support/portal-browser.js';
import { verificationRecords } from '../support/domain-verification.js';
import type { ZoneRecord } from '../support/dns-server.js';
import { DEMO_VERIFICATION_TOKEN } from '../../resolvers/orders/verification-record.js';
import { FREE_DOMAINS, orderingZone, postJson, startOrderingService, type OrderingHarness } from '../orders/support/ordering-fixture.js';
import { expectAxeClean } from '../support/axe.js';

const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;

/** Registered and delegated in the test zone, but its owner has not published the verification record yet. */
const UNPROVED = 'unproved-wizard.com';
const delegated = (name: string): ZoneRecord[] => [
  { name, type: 'NS', data: 'ns1.dns-host.net' },
  { name, type: 'NS', data: 'ns2.dns-host.net' },
];

let h: OrderingHarness;
let browser: Browser | undefined;

beforeAll(async () => {
  h = await startOrderingService();
  h.dns.setRecords([...orderingZone(), ...delegated(UNPROVED)]);
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function ordersOfDemoAccount(): Promise<{ reference: string; domain_count: number }[]> {
  const response = await h.service.api('/v1/portal/orders');
  expect(response.status).toBe(200);
  const body = await response.json();
  return Array.isArray(body) ? body : body.orders;
}

async function openWizard(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'New order' }).click();
  await page.getByRole('heading', { level: 1, name: 'New order' }).waitFor();
  await pageSettled(page);
}

/** Saves the sandbox test card the way a person does: the setup link opened in the browser, the card page filled in. */
async function saveSandboxCard(page: Page): Promise<void> {
  const link = await postJson(h.service, '/v1/payment-method/setup-link', {
    success_url: `${h.service.apiUrl}/healthz?card=saved`,
    cancel_url: `${h.service.apiUrl}/healthz?card=cancelled`,
  });
  expect(link.status).toBe(200);
  const card = await page.context().newPage();
  await card.goto(link.body.url);
  await card.getByLabel('Card number').fill('4242 4242 4242 4242');
  await card.getByLabel(/Expiry/).fill('12 / 30');
  await card.getByLabel('CVC').fill('123');
  await card.getByLabel('Name on card').fill('Ada Lovelace');
  await Promise.all([card.waitForURL(/card=saved/), card.getByRole('button', { name: 'Save card' }).click()]);
  await card.close();
}

const noSidewaysScroll = async (page: Page) => {
  const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })')) as { scroll: number; inner: number };
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
};

describe('the new-order wizard in Chromium', () => {
  it.skipIf(!runBrowserTests)(
    `places one order end to end with the sandbox card, a problem fixed on the way, and a double click placing once${skipNote}`,
    async () => {
      const before = await ordersOfDemoAccount();
      const portal = await signedInPortal(browser!, h.service);
      const { page } = portal;
      const placeRequests: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/graphql') && (request.postData() ?? '').includes('mutation PlaceOrder')) placeRequests.push(request.postData()!);
      });
      try {
        await openWizard(page);

        // Step 1: the demo catalogue's orderable plan is chosen; the others say why they cannot be ordered.
        expect(await page.getByRole('status').filter({ hasText: 'No card is on file' }).count()).toBe(1);
        expect(await page.getByRole('radio', { name: /unwarmed/ }).isChecked()).toBe(true);
        expect(await page.getByRole('radio', { name: /Microsoft 365/ }).isDisabled()).toBe(true);
        expect(await page.getByText(/Not orderable online:.*set up by our team/).count()).toBe(1);
        expect(await page.getByRole('button', { name: 'Ask for a plan' }).count()).toBe(1);
        await screenshot(page, 'new-order-1-plan-desktop');
        await page.getByRole('button', { name: 'Continue to domains' }).click();
        await page.getByRole('heading', { level: 2, name: /Step 2 of 3/ }).waitFor();

        // Step 2: one verified domain with two mailboxes is priced at the plan's $3.50 a mailbox.
        const first = page.getByRole('group', { name: 'Domain 1' });
        await first.getByLabel('Domain name').fill(FREE_DOMAINS[0]!);
        await first.getByLabel('Forward to (optional)').fill('main-site.com');
        const box1 = first.getByRole('group', { name: 'Mailbox 1 of domain 1' });
        await box1.getByLabel('First name').fill('Ada');
        await box1.getByLabel('Last name').fill('Lovelace');
        expect(await box1.getByLabel('Address').inputValue()).toBe('ada');
        await first.getByRole('button', { name: 'Add a mailbox to domain 1' }).click();
        const box2 = first.getByRole('group', { name: 'Mailbox 2 of domain 1' });
        await box2.getByLabel('First name').fill('Grace');
        await box2.getByLabel('Last name').fill('Hopper');
        const firstInvoice = page.getByTestId('first-invoice');
        await expect.poll(() => firstInvoice.textContent(), { timeout: 10_000 }).toBe('$7.00');
        expect(await page.getByTestId('renewal').textContent()).toBe('$7.00 a month');

        // A code the account does not have is refused with the service's sentence; a good one changes the first invoice only.
        await page.getByLabel('Promotion code (optional)').fill('NOPE-CODE');
        await expect.poll(() => page.locator('#promotion-code-effect').textContent(), { timeout: 10_000 }).toMatch(/"NOPE-CODE" is unknown/);
        expect(await page.getByLabel('Promotion code (optional)').getAttribute('aria-invalid')).toBe('true');
        await page.getByLabel('Promotion code (optional)').fill('WELCOME20');
        await expect.poll(() => firstInvoice.textContent(), { timeout: 10_000 }).toBe('$5.60');
        expect(await page.getByTestId('renewal').textContent()).toBe('$7.00 a month');
        await screenshot(page, 'new-order-2-preview-desktop');

        // A second domain not proved the account's: a problem for that domain, with the record to publish.
        await page.getByRole('button', { name: 'Add a domain' }).click();
        const second = page.getByRole('group', { name: 'Domain 2' });
        await second.getByLabel('Domain name').fill(UNPROVED);
        const box3 = second.getByRole('group', { name: 'Mailbox 1 of domain 2' });
        await box3.getByLabel('First name').fill('Alan');
        await box3.getByLabel('Last name').fill('Turing');
        // The problem sits under the domain it concerns, as a sentence, and the panel says where.
        const problems = second.getByRole('list', { name: 'Problems with domain 2' });
        await problems.waitFor({ timeout: 10_000 });
        expect(await page.getByRole('list', { name: 'Problems with domain 1' }).count()).toBe(0);
        expect(await problems.textContent()).toContain(`_inbox-verification.${UNPROVED}`);
        expect(await problems.textContent()).toContain(`inbox-verification=${DEMO_VERIFICATION_TOKEN}`);
        expect(await problems.getByRole('link', { name: 'Domain verification' }).getAttribute('href')).toBe('/portal/verification');
        expect(await page.getByRole('alert').filter({ hasText: 'This order cannot be placed yet: one problem to fix, shown under domain 2.' }).count()).toBe(1);
        expect(await page.getByText('listed in "problems"').count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Continue to review' }).isDisabled()).toBe(true);
        await screenshot(page, 'new-order-2-problem-desktop');
        await expectAxeClean(page, 'all');

        // The owner publishes the record; "Check again" asks anew and the three mailboxes are priced.
        h.dns.setRecords([...orderingZone(), ...delegated(UNPROVED), ...verificationRecords([UNPROVED])]);
        await page.getByRole('button', { name: 'Check again' }).click();
        await expect.poll(() => firstInvoice.isVisible().then((v) => (v ? firstInvoice.textContent() : null)), { timeout: 10_000 }).toBe('$8.40');
        expect(await page.getByTestId('renewal').textContent()).toBe('$10.50 a month');
        expect(await problems.count()).toBe(0);
        await page.getByRole('button', { name: 'Continue to review' }).click();

        // Step 3 without a card: it says so, links to billing, and cannot place.
        await page.getByRole('heading', { level: 2, name: /Step 3 of 3/ }).waitFor();
        expect(
          await page
            .getByRole('alert')
            .filter({ hasText: 'No card is on file' })
            .getByRole('link', { name: /Billing/ })
            .getAttribute('href'),
        ).toBe('/portal/billing');
        const place = page.getByRole('button', { name: /^Place order and pay/ });
        expect(await place.isDisabled()).toBe(true);
        await screenshot(page, 'new-order-3-review-no-card-desktop');

        // Off to Billing and back: the order typed so far is still there, on its domains.
        await page
          .getByRole('alert')
          .filter({ hasText: 'No card is on file' })
          .getByRole('link', { name: /Billing/ })
          .click();
        await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
        await openWizard(page);
        await page.getByRole('heading', { level: 2, name: /Step 2 of 3/ }).waitFor();
        expect(await page.getByRole('group', { name: 'Domain 2' }).getByLabel('Domain name').inputValue()).toBe(UNPROVED);
        await expect.poll(() => firstInvoice.textContent().catch(() => null), { timeout: 10_000 }).toBe('$8.40');
        await page.getByRole('button', { name: 'Continue to review' }).click();
        await page.getByRole('heading', { level: 2, name: /Step 3 of 3/ }).waitFor();

        await saveSandboxCard(page);
        await page.getByRole('button', { name: 'check for the card again' }).click();
        const charge = page.getByTestId('charge-sentence');
        await charge.waitFor();
        expect(await charge.textContent()).toMatch(/charges \$8\.40 now to the Visa ending 4242 \(expires 12\/2030\),\s*then \$10\.50 a month/);
        expect(await place.textContent()).toBe('Place order and pay $8.40');
        await screenshot(page, 'new-order-3-review-desktop');
        await expectAxeClean(page, 'all');

        // Step 4: a double click places one order.
        await place.dblclick();
        const placed = page.getByRole('heading', { level: 2, name: /^Order .+ placed$/ });
        await placed.waitFor({ timeout: 20_000 });
        const reference = /^Order (.+) placed$/.exec((await placed.textContent())!)![1]!;
        expect(await page.getByRole('status').filter({ hasText: '$8.40 was charged' }).count()).toBe(1);
        await screenshot(page, 'new-order-4-placed-desktop');
        // The confirmation links to each domain's setup page.
        const setupLinks = page.getByRole('list', { name: 'Setup of each domain' }).getByRole('link');
        expect(await setupLinks.allTextContents()).toEqual([`Set up ${FREE_DOMAINS[0]}`, `Set up ${UNPROVED}`]);
        expect(await setupLinks.first().getAttribute('href')).toBe(`/portal/domains/${FREE_DOMAINS[0]}/setup`);

        expect(placeRequests).toHaveLength(1);
        const after = await ordersOfDemoAccount();
        expect(after.length).toBe(before.length + 1);
        expect(after.filter((o) => o.reference === reference)).toHaveLength(1);

        // The confirmation's own key: sent again (a retry after a lost answer), it replays that order.
        const sent = JSON.parse(placeRequests[0]!) as { query: string; variables: { idempotencyKey: string } };
        expect(sent.variables.idempotencyKey).toMatch(/^[A-Za-z0-9.:_-]{8,64}$/);
        const again = (await page.evaluate(async (body) => {
          const response = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', 'x-graphql-yoga-csrf': 'portal' }, body });
          return response.json();
        }, placeRequests[0]!)) as { data: { placeOrder: { reference: string; replayed: boolean } } };
        expect(again.data.placeOrder).toMatchObject({ reference, replayed: true });
        expect((await ordersOfDemoAccount()).length).toBe(before.length + 1);

        // The dashboard lists the new order's domains.
        await page.getByRole('link', { name: 'Go to the dashboard' }).click();
        const group = page.getByRole('region', { name: new RegExp(`^Order ${reference}`) });
        await group.waitFor();
        expect(await group.locator('tbody tr td:first-child').allTextContents()).toEqual([FREE_DOMAINS[0], UNPROVED]);
        expect(portal.offsite).toEqual([]);
      } finally {
        await portal.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(`on a phone the preview sits under the domains, priced, with no sideways scroll${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, h.service, { viewport: PHONE });
    const { page } = portal;
    try {
      await page.getByRole('button', { name: 'Menu' }).click();
      await openWizard(page);
      await page.getByRole('button', { name: 'Continue to domains' }).click();
      const first = page.getByRole('group', { name: 'Domain 1' });
      await first.getByLabel('Domain name').fill(FREE_DOMAINS[1]!);
      const box = first.getByRole('group', { name: 'Mailbox 1 of domain 1' });
      await box.getByLabel('First name').fill('Katherine');
      await box.getByLabel('Last name').fill('Johnson');
      await page.getByLabel('Promotion code (optional)').fill('SPRING3');
      await expect
        .poll(
          () =>
            page
              .getByTestId('first-invoice')
              .textContent()
              .catch(() => null),
          { timeout: 10_000 },
        )
        .toBe('$2.63');
      expect(await page.getByText(/SPRING3/).count()).toBeGreaterThan(0);
      await noSidewaysScroll(page);
      await page.getByRole('region', { name: 'Preview' }).scrollIntoViewIfNeeded();
      await screenshot(page, 'new-order-2-preview-phone');
      await expectAxeClean(page, 'all');
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`refuses to go past the service's 500 domains, saying so${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, h.service);
    const { page } = portal;
    try {
      await openWizard(page);
      await page.getByRole('button', { name: 'Continue to domains' }).click();
      await page.getByText('Add many domains at once').click();
      await page.getByLabel('Domains, one per line').fill(Array.from({ length: 501 }, (_, i) => `bulk-${i}.com`).join('\n'));
      await page.getByRole('button', { name: 'Add these domains' }).click();
      expect(await page.getByRole('alert').filter({ hasText: 'an order holds at most 500' }).textContent()).toMatch(/That makes 501 domains/);
      expect(await page.getByRole('group', { name: /^Domain \d+$/ }).count()).toBe(1);
      await page.getByLabel('Domains, one per line').fill('bulk-a.com\nbulk-b.com\nbulk-a.com');
      await page.getByRole('button', { name: 'Add these domains' }).click();
      expect(await page.getByRole('group', { name: /^Domain \d+$/ }).count()).toBe(2);
      expect(await page.getByText(/^2 of at most 500 domains/).count()).toBe(1);
    } finally {
      await portal.close();
    }
  });
});
