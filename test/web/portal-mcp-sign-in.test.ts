import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, localOnlyContext, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, screenshot } from '../support/portal-browser.js';
import { createUserInAccount } from '../support/portal-people.js';
import { TestAssistant } from '../support/mcp-oauth-assistant.js';
import { expectAxeClean } from '../support/axe.js';

/**
 * The MCP sign-in as a person meets it in Chromium (docs/mcp.md, "Sign-in"): the assistant's
 * authorization URL, the portal's sign-in and back, the consent page (axe-clean at both widths, the
 * keyboard reaching every control), the redirect to the assistant with a code the SDK exchanges, then
 * the portal's "Connected assistants" listing it and disconnecting it.
 */
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

const tokenCall = (accessToken: string) =>
  fetch(`${service.apiUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

describe('the MCP sign-in in Chromium', () => {
  it.skipIf(!runBrowserTests)(
    `sign in, consent (axe-clean, by keyboard), back to the assistant with a code; the portal lists and disconnects it${skipNote}`,
    async () => {
      const person = await createUserInAccount(service, service.demo.accountId, 'owner');
      // The assistant's redirect: a page on this machine (the public listener's health check) the browser can load.
      const assistant = new TestAssistant(`${service.publicUrl}/healthz`, 'Browser assistant');
      const transport = new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), { authProvider: assistant });
      await expect(new Client({ name: 'browser-test', version: '1' }).connect(transport)).rejects.toThrow();

      const { context, offsite } = await localOnlyContext(browser!, { viewport: DESKTOP });
      try {
        const page = await context.newPage();
        await page.goto(assistant.authorizationUrl!.href);
        // Not signed in: the portal's sign-in, which says why, then back to the consent page.
        await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
        expect(page.url()).toMatch(/\/portal\/sign-in\?return_to=%2Foauth%2Finteraction%2F/);
        expect(await page.getByText('Sign in to answer an assistant').isVisible()).toBe(true);
        await page.getByLabel('E-mail').fill(person.email);
        await page.getByLabel('Password').fill(person.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { level: 1, name: /Allow Browser assistant to use your account\?/ }).waitFor();
        expect(new URL(page.url()).pathname).toMatch(/^\/oauth\/interaction\//);

        for (const [name, viewport] of [
          ['desktop', DESKTOP],
          ['phone', PHONE],
        ] as const) {
          await page.setViewportSize(viewport);
          await screenshot(page, `mcp-consent-${name}`);
          await expectAxeClean(page, 'wcag', `the consent page (${name})`);
          const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
          expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
        }
        expect(await page.locator('h1').count()).toBe(1);
        expect(await page.getByRole('group', { name: 'What it may do' }).isVisible()).toBe(true);

        // By keyboard: the three scopes, then Allow and Deny; untick write and allow.
        const write = page.getByRole('checkbox', { name: /write/ });
        expect(await page.getByRole('checkbox', { name: /read/ }).isChecked()).toBe(true);
        expect(await write.isChecked()).toBe(true);
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        expect(await write.evaluate((el) => el === document.activeElement)).toBe(true);
        await page.keyboard.press('Space');
        expect(await write.isChecked()).toBe(false);
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        expect(await page.getByRole('button', { name: 'Allow' }).evaluate((el) => el === document.activeElement)).toBe(true);
        await page.keyboard.press('Enter');
        await page.waitForURL(new RegExp(`^${service.publicUrl}/healthz\\?code=`));
        const code = new URL(page.url()).searchParams.get('code')!;
        await transport.finishAuth(code);
        expect(assistant.saved?.scope?.split(' ').sort()).toEqual(['orders:place', 'read']);
        expect((await tokenCall(assistant.saved!.access_token)).status).toBe(200);

        // The portal's settings list it; disconnecting it stops its token.
        await page.goto(`${service.apiUrl}/portal/settings`);
        const section = page.getByRole('region', { name: 'Connected assistants' });
        await section.getByRole('cell', { name: 'Browser assistant', exact: true }).waitFor();
        expect(await section.getByRole('cell', { name: 'read, orders:place', exact: true }).isVisible()).toBe(true);
        await section.scrollIntoViewIfNeeded();
        await screenshot(page, 'mcp-connected-assistants-desktop');
        await expectAxeClean(page, 'wcag', 'settings with an assistant');
        await section.getByRole('button', { name: 'Disconnect Browser assistant' }).click();
        await section.getByRole('button', { name: 'Yes, disconnect' }).click();
        await section.getByText('“Browser assistant” is disconnected').waitFor();
        expect((await tokenCall(assistant.saved!.access_token)).status).toBe(401);
        expect(offsite).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
