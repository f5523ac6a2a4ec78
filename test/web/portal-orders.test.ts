import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, pageSettled, screenshot, signedInPortal } from '../support/portal-browser.js';
import { SEQUENCERS } from '../../resolvers/changes/sequencers.js';
import { ANALYTICS_PERIODS } from '../../resolvers/account/get-analytics.js';
import { expectAxeClean } from '../support/axe.js';

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

interface RestOrder {
  subscription_id: string;
  reference: string;
  sequencer: string | null;
  monitor_deliverability: boolean;
  monitor_reconnection: boolean;
}
interface RestDomain {
  domain: string;
  workspace_id: number | null;
}
interface RestWorkspaces {
  workspaces: { workspace_id: number; name: string; domain_count: number }[];
  unfiled_domain_count: number;
}
interface RestAnalyticsDomain {
  domain: string;
  watched: boolean;
  sent: number | null;
}

async function restJson<T>(path: string, key: string): Promise<T> {
  const response = await service.api(path, { key });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const restOrders = async (key = service.demo.key) => (await restJson<{ orders: RestOrder[] }>('/v1/portal/orders', key)).orders;
const restDomains = async (key: string) =>
  (await restJson<{ orders: { domains: RestDomain[] }[] }>('/v1/portal/dashboard', key)).orders.flatMap((o) => o.domains);

/** Opens one of the portal's pages in the signed-in tab and waits for its heading. */
async function goTo(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(`${service.apiUrl}/portal${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await pageSettled(page);
}

/** The page fits the viewport's width (tables scroll inside their own box). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })')) as { scroll: number; inner: number };
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

async function statusText(page: Page, pattern: RegExp): Promise<string> {
  const notice = page.getByRole('status').filter({ hasText: pattern });
  await notice.waitFor();
  return (await notice.textContent()) ?? '';
}

describe('the orders page in Chromium', () => {
  it.skipIf(!runBrowserTests)(`changes an order's sequencer and a monitor switch, and the REST API reads both back${skipNote}`, async () => {
    const before = await restOrders();
    // The demo's second order has no sequencer yet and both monitors on.
    const order = before.find((o) => o.sequencer === null)!;
    expect(order.monitor_deliverability).toBe(true);
    const portal = await signedInPortal(browser!, service);
    try {
      const { page } = portal;
      await goTo(page, '/orders', 'Orders');
      // The h1 shows before the orders have answered: wait for the first card.
      await page
        .getByRole('heading', { level: 2, name: /^Order ORD-DEMO/ })
        .first()
        .waitFor();
      expect(await page.getByRole('heading', { level: 2, name: /^Order ORD-DEMO/ }).count()).toBe(before.length);
      const card = page.getByRole('region', { name: new RegExp(`Order ${order.reference}`) });
      const select = card.getByLabel('Sequencer (sending tool)');
      // The select offers exactly what the service accepts, and shows the order's current value.
      const offered = await select.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      expect(offered).toEqual(Object.keys(SEQUENCERS));
      expect(await select.inputValue()).toBe('none');

      await select.selectOption('smartlead');
      await card.getByRole('button', { name: 'Save sequencer' }).click();
      expect(await statusText(page, /now connects to/)).toBe(`Order ${order.reference} now connects to Smartlead.`);

      const deliverability = card.getByRole('switch', { name: 'Deliverability monitoring' });
      expect(await deliverability.isChecked()).toBe(true);
      await deliverability.press('Space');
      expect(await statusText(page, /Deliverability monitoring is/)).toBe(`Deliverability monitoring is off for order ${order.reference}.`);
      expect(await deliverability.isChecked()).toBe(false);

      const after = (await restOrders()).find((o) => o.subscription_id === order.subscription_id)!;
      expect(after.sequencer).toBe('smartlead');
      expect(after.monitor_deliverability).toBe(false);
      expect(after.monitor_reconnection).toBe(true);
      // The other orders were not touched.
      for (const other of before.filter((o) => o.subscription_id !== order.subscription_id)) {
        expect((await restOrders()).find((o) => o.subscription_id === other.subscription_id)).toEqual(other);
      }

      // A new load shows what the service holds.
      await page.reload();
      await card.waitFor();
      expect(await select.inputValue()).toBe('smartlead');
      expect(await deliverability.isChecked()).toBe(false);
      expect(await card.getByRole('switch', { name: 'Reconnection' }).isChecked()).toBe(true);
      await expectAxeClean(page, 'all');
      expect(portal.offsite).toEqual([]);
      await screenshot(page, 'orders-desktop');
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`a refused change shows the service's sentence and puts the switch back${skipNote}`, async () => {
    const account = await service.seedAccount();
    const portal = await signedInPortal(browser!, service, { accountId: account.accountId, viewport: PHONE });
    try {
      const { page } = portal;
      await goTo(page, '/orders', 'Orders');
      const [order] = await restOrders(account.key);
      const card = page.getByRole('region', { name: new RegExp(`Order ${order!.reference}`) });
      await card.waitFor();
      await expectNoSidewaysScroll(page);
      await expectAxeClean(page, 'all');
      await screenshot(page, 'orders-phone');
      // The order's subscription id changes under the open page, so the service no longer finds it.
      await service.services.db
        .updateTable('orders')
        .set({ subscription_id: `${order!.subscription_id}_moved` })
        .where('subscription_id', '=', order!.subscription_id)
        .execute();
      const reconnection = card.getByRole('switch', { name: 'Reconnection' });
      await reconnection.click();
      const alert = card.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toBe(
        `There is no order with subscription_id "${order!.subscription_id}" on this account; GET /v1/portal/orders lists yours.`,
      );
      expect(await reconnection.isChecked()).toBe(true);
    } finally {
      await portal.close();
    }
  });
});

describe('the folders page in Chromium', () => {
  it.skipIf(!runBrowserTests)(`creates, renames and deletes a folder, files a domain in it and back, and shows the unfiled count${skipNote}`, async () => {
    const account = await service.seedAccount();
    const start = await restJson<RestWorkspaces>('/v1/portal/workspaces', account.key);
    const domain = (await restDomains(account.key)).find((d) => d.workspace_id === null)!.domain;
    const portal = await signedInPortal(browser!, service, { accountId: account.accountId });
    try {
      const { page } = portal;
      await goTo(page, '/folders', 'Folders');
      const unfiled = page.locator('.stat', { hasText: 'unfiled domains' }).locator('strong');
      expect(await unfiled.textContent()).toBe(String(start.unfiled_domain_count));

      await page.getByLabel('New folder name').fill('Client: Globex');
      await page.getByRole('button', { name: 'Create folder' }).click();
      expect(await statusText(page, /created/)).toBe('Folder "Client: Globex" created.');
      await page.getByRole('button', { name: 'Rename "Client: Globex"' }).waitFor();

      // The same name again (any case) is refused with the service's sentence.
      await page.getByLabel('New folder name').fill('client: globex');
      await page.getByRole('button', { name: 'Create folder' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toMatch(/^You already have a workspace named "client: globex"/);

      await page.getByRole('button', { name: 'Rename "Client: Globex"' }).click();
      await page.getByLabel('New name for "Client: Globex"').fill('Globex outbound');
      await page.getByRole('button', { name: 'Save name' }).click();
      expect(await statusText(page, /renamed/)).toBe('Folder "Client: Globex" renamed to "Globex outbound".');
      const folder = (await restJson<RestWorkspaces>('/v1/portal/workspaces', account.key)).workspaces.find((w) => w.name === 'Globex outbound');
      expect(folder).toBeDefined();

      const filing = page.getByLabel(`Folder for ${domain}`);
      await page.getByRole('option', { name: 'Globex outbound' }).first().waitFor({ state: 'attached' });
      await filing.selectOption({ label: 'Globex outbound' });
      expect(await statusText(page, /filed in/)).toBe(`${domain} filed in "Globex outbound".`);
      await expect.poll(() => unfiled.textContent()).toBe(String(start.unfiled_domain_count - 1));
      expect((await restDomains(account.key)).find((d) => d.domain === domain)!.workspace_id).toBe(folder!.workspace_id);

      await filing.selectOption({ label: 'Unfiled' });
      expect(await statusText(page, /unfiled/)).toBe(`${domain} is now unfiled.`);
      await expect.poll(() => unfiled.textContent()).toBe(String(start.unfiled_domain_count));
      expect((await restDomains(account.key)).find((d) => d.domain === domain)!.workspace_id).toBeNull();

      await filing.selectOption({ label: 'Globex outbound' });
      await statusText(page, /filed in/);
      await expectAxeClean(page, 'all');
      await screenshot(page, 'folders-desktop');

      // Delete asks first; "Keep it" keeps it.
      await page.getByRole('button', { name: 'Delete "Globex outbound"' }).click();
      await page.getByRole('button', { name: 'Keep it' }).click();
      expect((await restJson<RestWorkspaces>('/v1/portal/workspaces', account.key)).workspaces.some((w) => w.name === 'Globex outbound')).toBe(true);
      await page.getByRole('button', { name: 'Delete "Globex outbound"' }).click();
      const question = page.getByRole('group', { name: 'Delete folder "Globex outbound"?' });
      expect(await question.textContent()).toMatch(/Its 1 domain stays on its order, unfiled/);
      // The question has the keyboard, so it is read out before its two buttons.
      expect(await page.evaluate('document.activeElement?.textContent ?? ""')).toMatch(/^Delete folder "Globex outbound"\?/);
      await screenshot(page, 'folders-delete-question');
      await question.getByRole('button', { name: 'Yes, delete "Globex outbound"' }).click();
      expect(await statusText(page, /deleted/)).toBe('Folder "Globex outbound" deleted; its 1 domain is now unfiled.');
      const end = await restJson<RestWorkspaces>('/v1/portal/workspaces', account.key);
      expect(end.workspaces.map((w) => w.name)).toEqual(start.workspaces.map((w) => w.name));
      expect(end.unfiled_domain_count).toBe(start.unfiled_domain_count);
      await expect.poll(() => unfiled.textContent()).toBe(String(start.unfiled_domain_count));
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`on a phone the folders page fits the screen${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: PHONE });
    try {
      await goTo(portal.page, '/folders', 'Folders');
      await portal.page.getByRole('heading', { level: 2, name: 'File domains' }).waitFor();
      await expectNoSidewaysScroll(portal.page);
      await expectAxeClean(portal.page, 'all');
      await screenshot(portal.page, 'folders-phone');
    } finally {
      await portal.close();
    }
  });
});

describe('the analytics page in Chromium', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const name = viewport === DESKTOP ? 'desktop' : 'phone';
    it.skipIf(!runBrowserTests)(
      `reads "not watched" for a domain not yet watched and a figure for a watched one, over the period chosen (${name})${skipNote}`,
      async () => {
        const account = await service.seedAccount();
        const rest = async (period: string) =>
          (await restJson<{ domains: RestAnalyticsDomain[] }>(`/v1/portal/analytics?period=${period}`, account.key)).domains;
        const week = await rest('7d');
        const unwatched = week.find((d) => !d.watched)!;
        const watched = week.find((d) => d.watched && (d.sent ?? 0) > 0)!;
        expect(unwatched.sent).toBeNull();
        const portal = await signedInPortal(browser!, service, { accountId: account.accountId, viewport });
        try {
          const { page } = portal;
          await goTo(page, '/analytics', 'Analytics');
          const period = page.getByLabel('Period');
          const offered = await period.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
          expect(offered).toEqual(Object.keys(ANALYTICS_PERIODS).map((p) => `P${p.toUpperCase()}`));
          expect(await period.inputValue()).toBe('P7D');

          // Rows of the checks' figures (the DMARC reports section below has tables of its own).
          const figures = page.locator('table.figures:has(caption#figures-caption)');
          const row = (domain: string) => figures.getByRole('row').filter({ has: page.getByRole('rowheader', { name: domain, exact: true }) });
          await row(watched.domain).waitFor();
          // The unwatched domain's row says so once and carries no figure, not even 0.
          const unwatchedCells = await row(unwatched.domain).getByRole('cell').allTextContents();
          expect(unwatchedCells).toHaveLength(1);
          expect(unwatchedCells[0]).toMatch(/^not watched/);
          // The watched one's Sent column (first after the domain) is the service's figure.
          const sentCell = row(watched.domain).getByRole('cell').first();
          expect(await sentCell.textContent()).toBe(watched.sent!.toLocaleString('en-US'));

          const chart = page.getByRole('img', { name: /^Sent per domain/ });
          const label = (await chart.getAttribute('aria-label')) ?? '';
          expect(label).toContain(`${unwatched.domain} not watched`);
          expect(label).toContain(`${watched.domain} ${watched.sent!.toLocaleString('en-US')}`);
          expect(label).not.toContain(`${unwatched.domain} 0`);

          // Another period asks the service again: 30 days hold more sends than 7.
          const month = (await rest('30d')).find((d) => d.domain === watched.domain)!;
          expect(month.sent!).toBeGreaterThan(watched.sent!);
          await period.selectOption('P30D');
          await expect.poll(() => sentCell.textContent()).toBe(month.sent!.toLocaleString('en-US'));
          expect(await row(unwatched.domain).getByRole('cell').allTextContents()).toHaveLength(1);
          if (viewport === PHONE) await expectNoSidewaysScroll(page);
          await expectAxeClean(page, 'all');
          await screenshot(page, `analytics-${name}`);
          expect(portal.offsite).toEqual([]);
        } finally {
          await portal.close();
        }
      },
    );
  }
});

describe('long lists in Chromium', () => {
  it.skipIf(!runBrowserTests)(
    `the dashboard shows 100 domains and "Show more domains" the rest; orders show 50 and then the rest${skipNote}`,
    async () => {
      const account = await service.seedAccount();
      const db = service.services.db;
      const plan = await db.selectFrom('plans').select('id').where('account_id', '=', account.accountId).executeTakeFirstOrThrow();
      // 60 more orders of two domains each: 63 orders and 125 domains with the demo's.
      for (let i = 0; i < 60; i++) {
        const order = await db
          .insertInto('orders')
          .values({
            account_id: account.accountId,
            plan_id: plan.id,
            reference: `ORD-LONG-${account.accountId}-${i}`,
            subscription_id: `sub_long_${account.accountId}_${i}`,
            status: 'active',
            quantity: 1,
            unit_amount: 1000,
            currency: 'usd',
            interval: 'month',
            sequencer: null,
            processor_subscription_id: null,
            first_invoice: null,
            promotion_code_id: null,
            processor_event_created: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('domains')
          .values(
            [0, 1].map((j) => ({
              account_id: account.accountId,
              order_id: order.id,
              workspace_id: null,
              domain: `long-${account.accountId}-${i}-${j}.example`,
              build_state: 'queued' as const,
              forward_to: null,
              watched_since: null,
            })),
          )
          .execute();
      }
      const portal = await signedInPortal(browser!, service, { accountId: account.accountId });
      const { page } = portal;
      try {
        await goTo(page, '/', 'Dashboard');
        const domainRows = page.locator('main tbody tr');
        expect(await domainRows.count()).toBe(100);
        await page.getByRole('button', { name: 'Show more domains' }).click();
        await expect.poll(() => domainRows.count()).toBe(125);
        expect(await page.getByRole('button', { name: 'Show more domains' }).count()).toBe(0);
        // The order split between the two pages is one group again, with both its domains.
        const names = await page.locator('main tbody tr td[data-label="Domain"]').allTextContents();
        expect(new Set(names).size).toBe(125);
        expect(await page.locator('main section.card').count()).toBe(63);

        await goTo(page, '/orders', 'Orders');
        const more = page.getByRole('button', { name: 'Show more orders' });
        await more.waitFor();
        const references = () => page.getByRole('heading', { level: 2, name: /^Order ORD-/ }).count();
        expect(await references()).toBe(50);
        await more.click();
        await expect.poll(references).toBe(63);
        expect(await more.count()).toBe(0);
        expect(portal.offsite).toEqual([]);
      } finally {
        await portal.close();
      }
    },
    120_000,
  );
});
