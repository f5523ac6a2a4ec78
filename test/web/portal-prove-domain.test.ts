import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { TEST_ADMIN_SETTINGS } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { PHONE, openPortal, pageSettled, screenshot, signInThroughPage } from '../support/portal-browser.js';
import { createUserInAccount } from '../support/portal-people.js';
import { expectAxeClean } from '../support/axe.js';
import { askBind, startBindServer, type BindServer } from '../support/bind-server.js';
import type { ZoneRecord } from '../support/dns-server.js';
import { FREE_DOMAINS, orderingZone, postJson, startOrderingService, type OrderingHarness } from '../orders/support/ordering-fixture.js';
import { runAdminCommand } from '../../admin/run-admin-command.js';

/**
 * The verification page's "Prove it with" choice (issue 34, item 1), as a new account's owner meets
 * it: the account's DNS connection is listed, choosing it and pressing "Publish and check" publishes
 * the proof record in a real BIND (the domain's name server) and the page says the domain is verified.
 */
const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;
const DOMAIN = FREE_DOMAINS[34]!;

let h: OrderingHarness;
let bind: BindServer;
let browser: Browser | undefined;

beforeAll(async () => {
  bind = await startBindServer({ zones: [{ name: DOMAIN, records: [] }] });
  h = await startOrderingService({
    env: {
      DNS_AUTHORITATIVE_PORT: String(bind.port),
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
      DNS_PUBLISH_TIMEOUT_MS: '3000',
    },
  });
  const view: ZoneRecord[] = [
    ...orderingZone().filter((r) => !(r.name === DOMAIN || r.name.endsWith(`.${DOMAIN}`))),
    { name: DOMAIN, type: 'NS', data: `ns1.${DOMAIN}` },
    { name: `ns1.${DOMAIN}`, type: 'A', data: '127.0.0.1' },
  ];
  h.dns.setRecords(view);
  if (runBrowserTests) browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await h?.close();
  await bind?.stop();
});

describe('the verification page', () => {
  it.skipIf(!runBrowserTests)(`a new account proves a domain with its DNS connection${skipNote}`, async () => {
    const made = await runAdminCommand(h.service.services.db, ['create-account', '--name', 'Newco prover'], TEST_ADMIN_SETTINGS);
    if (!made.ok) throw new Error(made.error);
    const accountId = Number(made.result.account_id);
    const keyMade = await runAdminCommand(h.service.services.db, ['create-key', '--account', String(accountId), '--scopes', 'read,write'], TEST_ADMIN_SETTINGS);
    if (!keyMade.ok) throw new Error(keyMade.error);
    const key = String(keyMade.result.key);
    const created = await postJson(
      h.service,
      '/v1/dns-connections',
      {
        kind: 'rfc2136',
        label: 'Zone server',
        server: '127.0.0.1',
        port: bind.port,
        key_name: bind.key.name,
        algorithm: bind.key.algorithm,
        secret: bind.key.secret,
      },
      { key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const connectionId = created.body.connection_id as number;
    const owner = await createUserInAccount(h.service, accountId, 'owner');

    const portal = await openPortal(browser!, h.service, PHONE);
    try {
      const { page } = portal;
      await signInThroughPage(page, owner.email, owner.password);
      await page.goto(`${h.service.apiUrl}/portal/verification`);
      const choice = page.getByLabel('Prove it with');
      await choice.waitFor();
      await pageSettled(page);
      expect(await choice.locator('option').allTextContents()).toEqual([
        'The record I published',
        `DNS connection ${connectionId}: Zone server (DNS server 127.0.0.1 port ${bind.port})`,
      ]);
      await page.getByLabel('Domain', { exact: true }).fill(DOMAIN);
      await choice.selectOption(String(connectionId));
      await page.getByRole('button', { name: 'Publish and check' }).click();
      const answer = page.getByRole('status').filter({ hasText: `${DOMAIN} is verified as yours` });
      await answer.waitFor();
      expect(await answer.textContent()).toContain(`published through DNS connection ${connectionId}`);
      await page.getByRole('cell', { name: DOMAIN }).waitFor();
      expect(await askBind(bind.port, `_inbox-verification.${DOMAIN}`, 'TXT')).toHaveLength(1);
      await screenshot(page, 'verification-proved-with-connection-phone');
      await expectAxeClean(page, 'all');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(portal.offsite).toEqual([]);
    } finally {
      await portal.close();
    }
  });
});
