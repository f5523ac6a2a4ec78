import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, pageSettled, screenshot, signedInPortal } from '../support/portal-browser.js';
import { askBind, startBindServer, type BindServer } from '../support/bind-server.js';
import { GOOGLE_MX_HOSTS, GOOGLE_SPF_FLAT, googleZoneLines } from '../support/google-mail-zone.js';
import { orderBody, postJson, saveCardThroughSandboxPage } from '../orders/support/ordering-fixture.js';
import { waitFor } from '../jobs/webhook-receiver.js';
import { DEMO_VERIFICATION_TOKEN, verificationName, verificationValue } from '../../resolvers/orders/verification-record.js';
import { expectAxeClean } from '../support/axe.js';

/**
 * A domain's setup page in Chromium against a running service whose DNS is a real BIND: the records
 * and their statuses, copy to the clipboard, check now, the re-check every 30 s (and none while the
 * tab is hidden), the zone file, the phone layout, DNS connections in settings, and "publish for me"
 * (a dry run in words, then publish through RFC 2136) turning the records verified. axe-clean at
 * 1280×900 and 390×844.
 */
const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;
const DOMAIN = 'portal-setup.test';
/** BIND's own update client (Debian's bind9-dnsutils, installed by .ci/run beside bind9). */
const NSUPDATE = '/usr/bin/nsupdate';

let bind: BindServer;
let service: TestService;
let browser: Browser | undefined;

interface RestRecord {
  purpose: string;
  type: string;
  name: string;
  value: string;
  priority: number | null;
  status: string;
  required: boolean;
  detail: string;
}

async function restSetup(): Promise<{ build_state: string; records: RestRecord[] }> {
  const response = await service.api(`/v1/domains/${DOMAIN}/setup`);
  expect(response.status).toBe(200);
  return (await response.json()) as { build_state: string; records: RestRecord[] };
}

async function restConnections(): Promise<{ connection_id: number; label: string | null }[]> {
  const response = await service.api('/v1/dns-connections');
  expect(response.status).toBe(200);
  return (await response.json()) as { connection_id: number; label: string | null }[];
}

/** Changes the zone with BIND's own nsupdate (signed with the zone's key): the test's hand on the DNS, not the service's. */
async function nsupdate(lines: readonly string[]): Promise<void> {
  const child = spawn(NSUPDATE, ['-y', `${bind.key.algorithm}:${bind.key.name}:${bind.key.secret}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin.end([`server 127.0.0.1 ${bind.port}`, `zone ${DOMAIN}`, ...lines, 'send', ''].join('\n'));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`nsupdate failed (${code}): ${err}`);
}

async function openSetup(page: Page): Promise<void> {
  await page.goto(`${service.apiUrl}/portal/domains/${DOMAIN}/setup`);
  await page.getByRole('heading', { level: 1, name: `Setup of ${DOMAIN}` }).waitFor();
  await pageSettled(page);
}

/** The record card of one purpose (each card is a list item named after what the record is for). */
/**
 * Returns once every request the page has sent so far has reached the test's request listeners: the
 * page's pending tasks run first (a few message-channel round trips, as React schedules its work; no
 * timer, since the page's clock is held), then a marker fetch is sent, and the listeners see requests
 * in the order they were sent. Instead of a fixed wait before checking that no check was sent.
 */
async function requestsSentSoFarSeen(page: Page): Promise<void> {
  await page.evaluate(`(async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => { const c = new MessageChannel(); c.port1.onmessage = resolve; c.port2.postMessage(0); });
  })()`);
  const marker = `/healthz?requests-seen=${Math.random()}`;
  const seen = page.waitForRequest((request) => request.url().endsWith(marker));
  await page.evaluate(`void fetch(${JSON.stringify(marker)})`);
  await seen;
}

const card = (page: Page, purpose: string) => page.locator(`li.setup-record[data-purpose="${purpose}"]`);

async function statusOf(page: Page, purpose: string): Promise<string | null> {
  return card(page, purpose).getAttribute('data-status');
}

beforeAll(async () => {
  bind = await startBindServer({
    resolver: true,
    zones: [
      { name: DOMAIN, records: [`${verificationName(DOMAIN)}. IN TXT "${verificationValue(DEMO_VERIFICATION_TOKEN)}"`] },
      // Google's SPF and MX host addresses: a record verifies only when it works.
      { name: 'google.com', records: googleZoneLines([...GOOGLE_SPF_FLAT, ...GOOGLE_MX_HOSTS]) },
    ],
  });
  service = await startTestService({
    googleTenancy: { probe: async () => 'unmanaged' },
    env: {
      DNS_SERVERS: `127.0.0.1:${bind.port}`,
      // The zone's own name server (ns1.<domain>, 127.0.0.1) is asked directly on BIND's port.
      DNS_AUTHORITATIVE_PORT: String(bind.port),
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      JOBS: 'on',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      // No sweep after the first: the order queues its build itself, and the jobs leave the re-checks to
      // the page in this file (what turns a record verified here is the page's own check). A sweep every
      // 300 ms ran about ten queries each time for the whole file, for nothing.
      JOBS_SWEEP_INTERVAL_MS: '3600000',
      SETUP_RECHECK_FIRST_MS: '3600000',
      SETUP_RECHECK_MAX_MS: '3600000',
      DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
      DNS_PUBLISH_TIMEOUT_MS: '3000',
      FORWARD_TARGET: '192.0.2.80',
      ALERT_OUTBOX_DIR: `/tmp/outbox-portal-setup-${process.pid}`,
    },
  });
  await saveCardThroughSandboxPage(service, '4242 4242 4242 4242');
  const placed = await postJson(service, '/v1/orders', orderBody([DOMAIN], 1), { headers: { 'idempotency-key': 'portal-setup-0001' } });
  if (placed.status !== 200) throw new Error(`the order was refused: ${JSON.stringify(placed.body)}`);
  await waitFor('the domain built and waiting for its DNS', async () => ((await restSetup()).build_state === 'waiting_for_dns' ? true : null));
  if (runBrowserTests) browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await bind?.stop();
});

describe('the setup page of a domain', () => {
  it.skipIf(!runBrowserTests)(`is reached from the dashboard row, shows each record with its status and the state in words, axe-clean${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
    try {
      const { page } = portal;
      await page.getByRole('link', { name: new RegExp(`^${DOMAIN.replace('.', '\\.')}`) }).click();
      await page.getByRole('heading', { level: 1, name: `Setup of ${DOMAIN}` }).waitFor();
      await pageSettled(page);
      const rest = await restSetup();
      expect(await page.locator('li.setup-record').count()).toBe(rest.records.length);
      for (const record of rest.records) {
        expect(await statusOf(page, record.purpose), record.purpose).toBe(record.status);
        expect(await card(page, record.purpose).getByTestId('record-name').textContent()).toBe(record.name);
        expect(await card(page, record.purpose).getByTestId('record-value').textContent()).toBe(record.value);
      }
      expect(await statusOf(page, 'mx')).toBe('missing');
      expect(await statusOf(page, 'verification')).toBe('verified');
      expect(await card(page, 'mx').locator('.chip').textContent()).toBe('missing');
      expect(await page.getByTestId('state-words').textContent()).toContain('waiting for the records below');
      // Read from the zone's own name server, not a cache.
      expect(await page.getByTestId('read-from').textContent()).toBe(`Read from the name servers of ${DOMAIN} (ns1.${DOMAIN}), not from a cache.`);
      expect(await page.getByTestId('state-reason').textContent()).toContain('MX');
      // Words for people: no API paths or documentation files on the page.
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text).not.toMatch(/\/v1\/|docs\/|\.md\b|graphql/i);
      await screenshot(page, 'domain-setup-desktop');
      await expectAxeClean(page);
      expect(portal.offsite).toEqual([]);
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`copy puts a record's name and value on the clipboard${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
    try {
      const { page } = portal;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.apiUrl });
      await openSetup(page);
      const dkim = (await restSetup()).records.find((r) => r.purpose === 'dkim')!;
      await card(page, 'dkim')
        .getByRole('button', { name: /^Copy value/ })
        .click();
      await card(page, 'dkim').getByRole('status').filter({ hasText: 'Copied' }).waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(dkim.value);
      await card(page, 'dkim')
        .getByRole('button', { name: /^Copy name/ })
        .click();
      await waitFor('the name on the clipboard', async () => ((await page.evaluate('navigator.clipboard.readText()')) === dkim.name ? true : null));
      expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=/);
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`downloads the zone file (text/dns) the service makes${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
    try {
      const { page } = portal;
      await openSetup(page);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the zone file' }).click()]);
      expect(download.suggestedFilename()).toBe(`${DOMAIN}.zone`);
      const saved = readFileSync((await download.path())!, 'utf8');
      const rest = await service.api(`/v1/domains/${DOMAIN}/setup/zone`);
      expect(rest.headers.get('content-type')).toMatch(/^text\/dns/);
      expect(saved).toBe(await rest.text());
      expect(saved).toContain(`${DOMAIN}.\t3600\tIN\tMX\t1 smtp.google.com.`);
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`"Check now" reads the DNS again: a DMARC record published meanwhile turns verified${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
    try {
      const { page } = portal;
      await openSetup(page);
      expect(await statusOf(page, 'dmarc')).toBe('missing');
      const dmarc = (await restSetup()).records.find((r) => r.purpose === 'dmarc')!;
      await nsupdate([`update add ${dmarc.name}. 300 TXT "${dmarc.value}"`]);
      expect(await askBind(bind.port, dmarc.name, 'TXT')).toEqual([dmarc.value]);
      // The page has not asked again yet.
      expect(await statusOf(page, 'dmarc')).toBe('missing');
      await page.getByRole('button', { name: 'Check now' }).click();
      await page.locator('li.setup-record[data-purpose="dmarc"][data-status="verified"]').waitFor();
      expect(await card(page, 'dmarc').locator('.chip').textContent()).toBe('verified');
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: /records verified/ })
          .textContent(),
      ).toContain('Checked at');
      await expectAxeClean(page);
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`the dashboard shows each setup problem once, with the record it speaks of, and links to the setup${skipNote}`, async () => {
    // The checks so far stored the failing records; "Check now" again so this test stands alone.
    const checked = await service.api(`/v1/domains/${DOMAIN}/setup/check`, { method: 'POST' });
    expect(checked.status).toBe(200);
    const failing = (await restSetup()).records.filter((r) => r.required && r.status !== 'verified');
    expect(failing.length).toBeGreaterThan(0);
    const portal = await signedInPortal(browser!, service, { viewport: PHONE });
    try {
      const { page } = portal;
      const problems = page.getByRole('list', { name: `Setup problems of ${DOMAIN}` });
      await problems.waitFor();
      const row = page.getByRole('row').filter({ has: problems });
      const items = problems.getByRole('listitem');
      expect(await items.count()).toBe(failing.length);
      const rowText = (await row.textContent()) ?? '';
      for (const [i, record] of failing.entries()) {
        const item = items.nth(i);
        expect(await item.textContent()).toContain(record.detail);
        // Once: the build reason (which repeats the sentences) is not shown beside the list.
        expect(rowText.split(record.detail).length - 1, record.purpose).toBe(1);
        expect(await item.locator('dd code').allTextContents()).toEqual([record.type, record.name, record.value]);
      }
      expect(await row.getByRole('link', { name: `Publish ${failing.length === 1 ? 'it' : 'them'} from the setup of ${DOMAIN}` }).getAttribute('href')).toBe(
        `/portal/domains/${DOMAIN}/setup`,
      );
      const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })')) as { scroll: number; inner: number };
      expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      await screenshot(page, 'dashboard-setup-problems-phone');
      await expectAxeClean(page);
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`checks again by itself every 30 s while the tab is visible, never while it is hidden${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
    try {
      const { page } = portal;
      const checks: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/graphql') && (request.postData() ?? '').includes('CheckDomainSetup')) checks.push(request.url());
      });
      await page.clock.install();
      await openSetup(page);
      expect(await statusOf(page, 'forwarding')).toBe('missing');
      await nsupdate([`update add ${DOMAIN}. 300 A 192.0.2.80`]);
      // Hidden: 2 minutes pass and nothing is asked.
      await page.evaluate(`Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'))`);
      await page.clock.runFor(120_000);
      await requestsSentSoFarSeen(page);
      expect(checks).toEqual([]);
      expect(await statusOf(page, 'forwarding')).toBe('missing');
      // Shown again: a check was due, so it runs at once; then one per 30 s.
      await page.evaluate(`Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        document.dispatchEvent(new Event('visibilitychange'))`);
      await page.locator('li.setup-record[data-purpose="forwarding"][data-status="verified"]').waitFor();
      expect(checks).toHaveLength(1);
      await page.clock.runFor(25_000);
      await requestsSentSoFarSeen(page);
      expect(checks).toHaveLength(1);
      await page.clock.runFor(10_000);
      await waitFor('the next check about 30 s later', async () => (checks.length === 2 ? true : null));
    } finally {
      await portal.close();
    }
  });

  it.skipIf(!runBrowserTests)(`on a phone (390×844) the records stack as cards, nothing scrolls sideways, axe-clean${skipNote}`, async () => {
    const portal = await signedInPortal(browser!, service, { viewport: PHONE });
    try {
      const { page } = portal;
      await openSetup(page);
      const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })')) as { scroll: number; inner: number };
      expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      // Each card's label sits above its value (stacked), and the long DKIM value wraps inside the card.
      const dkim = card(page, 'dkim');
      const label = (await dkim.locator('dt', { hasText: 'Value' }).boundingBox())!;
      const value = (await dkim.getByTestId('record-value').boundingBox())!;
      expect(value.y).toBeGreaterThan(label.y + label.height - 1);
      const box = (await dkim.boundingBox())!;
      expect(value.x + value.width).toBeLessThanOrEqual(box.x + box.width);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, 'domain-setup-phone');
      await expectAxeClean(page);
    } finally {
      await portal.close();
    }
  });
});

describe('DNS connections in settings', () => {
  it.skipIf(!runBrowserTests)(
    `"Add a DNS connection in Settings" opens the DNS connections section, scrolled to and focused, with a way back to the domain${skipNote}`,
    async () => {
      expect(await restConnections()).toEqual([]);
      const portal = await signedInPortal(browser!, service, { viewport: PHONE });
      try {
        const { page } = portal;
        await openSetup(page);
        await page.getByRole('region', { name: 'Publish for me' }).getByRole('link', { name: 'Add a DNS connection in Settings' }).click();
        await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
        expect(new URL(page.url()).hash).toBe('#dns-connections');
        // The section takes the focus (a screen reader starts there) and is on the screen, not 5,000 px below.
        await page.waitForFunction(() => document.activeElement?.id === 'dns-connections');
        await pageSettled(page);
        const section = page.getByRole('region', { name: 'DNS connections' });
        const heading = section.getByRole('heading', { level: 2, name: 'DNS connections' });
        await page.waitForFunction(() => {
          const box = document.getElementById('dns-connections-heading')!.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        });
        expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
        expect(await heading.isVisible()).toBe(true);
        await expectAxeClean(page);
        await expectAxeClean(page, 'names');

        // The way back leads to the setup of the domain the link was opened from.
        await section.getByRole('link', { name: `Back to the setup of ${DOMAIN}` }).click();
        await page.getByRole('heading', { level: 1, name: `Setup of ${DOMAIN}` }).waitFor();
        expect(new URL(page.url()).pathname).toBe(`/portal/domains/${DOMAIN}/setup`);

        // Only a setup page of this portal is a way back: any other return_to shows no link.
        await page.goto(`${service.apiUrl}/portal/settings?return_to=${encodeURIComponent('https://example.com/x')}#dns-connections`);
        await page.waitForFunction(() => document.activeElement?.id === 'dns-connections');
        expect(await section.getByRole('link', { name: /^Back to/ }).count()).toBe(0);
      } finally {
        await portal.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(
    `adds an RFC 2136 connection with the secret in a password field, never shown again; deletes one after confirming${skipNote}`,
    async () => {
      const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
      try {
        const { page } = portal;
        await page.goto(`${service.apiUrl}/portal/settings`);
        await page.getByRole('heading', { level: 2, name: 'DNS connections' }).waitFor();
        await pageSettled(page);
        const section = page.getByRole('region', { name: 'DNS connections' });
        await section.getByLabel('Label (optional)').fill('Doomed');
        await section.getByLabel('Kind').selectOption('cloudflare');
        const token = section.getByLabel('API token');
        expect(await token.getAttribute('type')).toBe('password');
        await token.fill('cf_doomed_token_0123456789abcdef');
        await section.getByRole('button', { name: 'Add connection' }).click();
        await section.getByRole('status').filter({ hasText: 'Connection Doomed added.' }).waitFor();
        await section.getByTestId('dns-connection').filter({ hasText: 'Doomed' }).waitFor();
        expect(await page.content()).not.toContain('cf_doomed_token_0123456789abcdef');
        await expectAxeClean(page);

        await section.getByRole('button', { name: /^Delete the connection Doomed/ }).click();
        // Nothing is deleted until confirmed.
        expect((await restConnections()).map((c) => c.label)).toContain('Doomed');
        await section.getByRole('button', { name: 'Yes, delete it' }).click();
        await section.getByTestId('dns-connection').filter({ hasText: 'Doomed' }).waitFor({ state: 'detached' });
        expect((await restConnections()).map((c) => c.label)).not.toContain('Doomed');

        await section.getByLabel('Kind').selectOption('rfc2136');
        await section.getByLabel('Label (optional)').fill('Our BIND');
        await section.getByLabel('Server').fill('127.0.0.1');
        await section.getByLabel('Port').fill(String(bind.port));
        await section.getByLabel('TSIG key', { exact: true }).fill(bind.key.name);
        const secret = section.getByLabel('Secret');
        expect(await secret.getAttribute('type')).toBe('password');
        await secret.fill(bind.key.secret);
        await section.getByRole('button', { name: 'Add connection' }).click();
        await section.getByTestId('dns-connection').filter({ hasText: 'Our BIND' }).waitFor();
        expect(await secret.inputValue()).toBe('');
        expect(await page.content()).not.toContain(bind.key.secret);
        await page.reload();
        await section.getByTestId('dns-connection').filter({ hasText: 'Our BIND' }).waitFor();
        expect(await page.content()).not.toContain(bind.key.secret);
        // Its id is shown, as the CLI and the API take it.
        const listed = (await (await service.api('/v1/dns-connections')).json()) as { connection_id: number; label: string | null }[];
        const ours = listed.find((c) => c.label === 'Our BIND');
        expect(await section.getByTestId('dns-connection').filter({ hasText: 'Our BIND' }).textContent()).toContain(`connection ${ours?.connection_id}`);
      } finally {
        await portal.close();
      }
    },
  );
});

describe('publish for me', () => {
  it.skipIf(!runBrowserTests)(
    `shows a dry run in words that changes nothing, then publishes through RFC 2136 and the records turn verified${skipNote}`,
    async () => {
      const made = await postJson(service, '/v1/dns-connections', {
        kind: 'rfc2136',
        label: 'Publishing BIND',
        server: '127.0.0.1',
        port: bind.port,
        key_name: bind.key.name,
        secret: bind.key.secret,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const portal = await signedInPortal(browser!, service, { viewport: DESKTOP });
      try {
        const { page } = portal;
        await openSetup(page);
        const publish = page.getByRole('region', { name: 'Publish for me' });
        await publish.getByLabel('DNS connection').selectOption(String(made.body.connection_id));
        expect(await statusOf(page, 'mx')).toBe('missing');
        await publish.getByRole('button', { name: 'Show the changes' }).click();
        const planned = publish.getByTestId('planned-changes').getByRole('listitem');
        await planned.first().waitFor();
        const words = await planned.allTextContents();
        expect(words).toContain(`Add a MX record at ${DOMAIN}: 1 smtp.google.com`);
        expect(words.some((w) => w.startsWith(`Add a TXT record at google._domainkey.${DOMAIN}: v=DKIM1; k=rsa; p=`))).toBe(true);
        expect(words.join('\n')).not.toMatch(/\/v1\/|docs\//);
        // The dry run wrote nothing.
        expect(await askBind(bind.port, DOMAIN, 'MX')).toEqual([]);
        await expectAxeClean(page);
        await screenshot(page, 'domain-setup-publish-dry-run');

        await publish.getByRole('button', { name: 'Publish', exact: true }).click();
        await publish
          .getByRole('status')
          .filter({ hasText: /^Published \d+ change/ })
          .waitFor();
        expect(await askBind(bind.port, DOMAIN, 'MX')).toEqual(['1 smtp.google.com']);
        // The page checks again by itself: every required record verified, the domain live.
        await page.locator('li.setup-record[data-purpose="dkim"][data-status="verified"]').waitFor({ timeout: 15_000 });
        for (const record of (await restSetup()).records) expect(await statusOf(page, record.purpose), record.purpose).toBe('verified');
        await page.getByRole('heading', { level: 2, name: 'State: live' }).waitFor();
        expect((await restSetup()).build_state).toBe('live');

        // A second dry run has nothing left to change.
        await publish.getByRole('button', { name: 'Show the changes' }).click();
        await publish.getByRole('status').filter({ hasText: 'Nothing to change' }).waitFor();
      } finally {
        await portal.close();
      }
    },
  );
});
