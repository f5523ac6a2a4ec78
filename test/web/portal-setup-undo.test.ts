import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, pageSettled, screenshot, signedInPortal } from '../support/portal-browser.js';
import { askBind, startBindServer, type BindServer } from '../support/bind-server.js';
import { orderBody, postJson, saveCardThroughSandboxPage } from '../orders/support/ordering-fixture.js';
import { waitFor } from '../jobs/webhook-receiver.js';
import { DEMO_VERIFICATION_TOKEN, verificationName, verificationValue } from '../../resolvers/orders/verification-record.js';
import { expectAxeClean } from '../support/axe.js';

/**
 * "Undo this publish" on a domain's setup page, in Chromium against a running service whose DNS is a
 * real BIND: each publish is listed with what it changed; undoing one first shows what would be put
 * back (nothing written), then, confirmed, puts the other provider's records back; a publish whose
 * records were changed by hand since (nsupdate) is not undone and the page says what changed.
 * axe-clean at 1280×900 and 390×844.
 */
const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;
const DOMAIN = 'portal-undo.test';
const NSUPDATE = '/usr/bin/nsupdate';

let bind: BindServer;
let service: TestService;
let browser: Browser | undefined;
let connectionId: number;

async function nsupdate(lines: readonly string[]): Promise<void> {
  const child = spawn(NSUPDATE, ['-y', `${bind.key.algorithm}:${bind.key.name}:${bind.key.secret}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin.end([`server 127.0.0.1 ${bind.port}`, `zone ${DOMAIN}`, ...lines, 'send', ''].join('\n'));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`nsupdate failed (${code}): ${err}`);
}

async function applyNow(): Promise<number> {
  const applied = await postJson(service, `/v1/domains/${DOMAIN}/setup/apply`, { connection_id: connectionId, dry_run: false });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  expect(applied.body.apply_id).toEqual(expect.any(Number));
  return applied.body.apply_id;
}

async function journal(): Promise<{ apply_id: number; kind: string; reverted_at: string | null }[]> {
  const response = await service.api(`/v1/domains/${DOMAIN}/setup/applies`);
  expect(response.status).toBe(200);
  return (await response.json()).data;
}

beforeAll(async () => {
  bind = await startBindServer({
    resolver: true,
    zones: [
      {
        name: DOMAIN,
        records: [`${verificationName(DOMAIN)}. IN TXT "${verificationValue(DEMO_VERIFICATION_TOKEN)}"`, '@ 600 IN MX 10 mx.other-provider.test.'],
      },
    ],
  });
  service = await startTestService({
    googleTenancy: { probe: async () => 'unmanaged' },
    env: {
      DNS_SERVERS: `127.0.0.1:${bind.port}`,
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      JOBS: 'on',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '3600000',
      SETUP_RECHECK_FIRST_MS: '3600000',
      SETUP_RECHECK_MAX_MS: '3600000',
      DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
      DNS_PUBLISH_TIMEOUT_MS: '3000',
      FORWARD_TARGET: '192.0.2.80',
      ALERT_OUTBOX_DIR: `/tmp/outbox-portal-undo-${process.pid}`,
    },
  });
  await saveCardThroughSandboxPage(service, '4242 4242 4242 4242');
  const placed = await postJson(service, '/v1/orders', orderBody([DOMAIN], 1), { headers: { 'idempotency-key': 'portal-undo-0001' } });
  if (placed.status !== 200) throw new Error(`the order was refused: ${JSON.stringify(placed.body)}`);
  await waitFor('the domain built', async () => {
    const response = await service.api(`/v1/domains/${DOMAIN}/setup`);
    return response.status === 200 && (await response.json()).build_state === 'waiting_for_dns' ? true : null;
  });
  const made = await postJson(service, '/v1/dns-connections', {
    kind: 'rfc2136',
    label: 'Undo BIND',
    server: '127.0.0.1',
    port: bind.port,
    key_name: bind.key.name,
    secret: bind.key.secret,
  });
  if (made.status !== 200) throw new Error(`the connection was refused: ${JSON.stringify(made.body)}`);
  connectionId = made.body.connection_id;
  if (runBrowserTests) browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await bind?.stop();
});

describe('undo this publish', () => {
  it.skipIf(!runBrowserTests)(
    `lists the publish, shows what undoing it would put back (nothing written), then puts the other provider's MX back; axe-clean${skipNote}`,
    async () => {
      const applyId = await applyNow();
      expect(await askBind(bind.port, DOMAIN, 'MX')).toEqual(['1 smtp.google.com']);
      const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
      try {
        const { page } = portal;
        await page.goto(`${service.apiUrl}/portal/domains/${DOMAIN}/setup`);
        await page.getByRole('heading', { level: 1, name: `Setup of ${DOMAIN}` }).waitFor();
        await pageSettled(page);
        const publishes = page.getByRole('region', { name: 'Publishes' });
        const item = publishes.locator(`li.setup-apply[data-apply-id="${applyId}"]`);
        await item.waitFor();
        expect(await item.textContent()).toContain(`MX at ${DOMAIN}: replaced 10 mx.other-provider.test (TTL 600); added 1 smtp.google.com (TTL 3600)`);
        await expectAxeClean(page);

        await item.getByRole('button', { name: /^Undo this publish/ }).click();
        const planned = item.getByTestId('revert-changes').getByRole('listitem');
        await planned.first().waitFor();
        expect(await planned.allTextContents()).toContain(`MX at ${DOMAIN}: remove 1 smtp.google.com (TTL 3600); put back 10 mx.other-provider.test (TTL 600)`);
        // The dry run wrote nothing.
        expect(await askBind(bind.port, DOMAIN, 'MX')).toEqual(['1 smtp.google.com']);
        expect((await journal()).find((e) => e.apply_id === applyId)?.reverted_at).toBeNull();
        await expectAxeClean(page);
        await screenshot(page, 'domain-setup-undo-dry-run');

        await item.getByRole('button', { name: 'Yes, undo it' }).click();
        await publishes.getByRole('status').filter({ hasText: 'The publish was undone' }).waitFor();
        expect(await askBind(bind.port, DOMAIN, 'MX')).toEqual(['10 mx.other-provider.test']);
        await item.getByText(/^Undone /).waitFor();
        expect(await item.getByRole('button', { name: /^Undo this publish/ }).count()).toBe(0);
        const entries = await journal();
        expect(entries.find((e) => e.apply_id === applyId)?.reverted_at).toEqual(expect.any(String));
        // The page checked again: the MX is ours no more.
        await page.locator('li.setup-record[data-purpose="mx"]:not([data-status="verified"])').waitFor();
      } finally {
        await portal.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(`a publish changed by hand since is not undone; the page says what changed (on a phone, axe-clean)${skipNote}`, async () => {
    const applyId = await applyNow();
    await nsupdate([`update delete ${DOMAIN}. MX`, `update add ${DOMAIN}. 300 MX 5 mx.by-hand.test.`]);
    const portal = await signedInPortal(browser!, service, { viewport: PHONE });
    try {
      const { page } = portal;
      await page.goto(`${service.apiUrl}/portal/domains/${DOMAIN}/setup`);
      await page.getByRole('heading', { level: 1, name: `Setup of ${DOMAIN}` }).waitFor();
      await pageSettled(page);
      const item = page.getByRole('region', { name: 'Publishes' }).locator(`li.setup-apply[data-apply-id="${applyId}"]`);
      await item.getByRole('button', { name: /^Undo this publish/ }).click();
      const alert = item.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(
        /The zone changed since apply \d+, so nothing was reverted: MX at portal-undo\.test now holds 5 "mx\.by-hand\.test"/,
      );
      expect(await askBind(bind.port, DOMAIN, 'MX')).toEqual(['5 mx.by-hand.test']);
      expect((await journal()).find((e) => e.apply_id === applyId)?.reverted_at).toBeNull();
      const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })')) as { scroll: number; inner: number };
      // Nothing sticks out sideways (the connection picker of "Publish for me" did, with a long label).
      const wide = await page.evaluate(
        `[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => e.tagName + ' ' + (e.textContent || '').slice(0, 60))`,
      );
      expect(wide).toEqual([]);
      expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      await expectAxeClean(page);
    } finally {
      await portal.close();
    }
  });
});
