import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, NO_CHROMIUM_REASON } from '../support/browser.js';
import { DESKTOP, PHONE, openPortal, pageSettled, screenshot, signInThroughPage } from '../support/portal-browser.js';
import { createUserInAccount } from '../support/portal-people.js';
import { CookieBrowser, TestAssistant, consentInBrowser } from '../support/mcp-oauth-assistant.js';
import { expectAxeClean } from '../support/axe.js';
import { sessionGraphql, signIn } from '../auth/auth-support.js';

/**
 * Settings' "Sign out everywhere" in Chromium (docs/people.md, "Sessions"; issue 32, item 8): the
 * section is axe-clean at both widths, the button asks once more, and confirming it ends the
 * person's every session (this browser's, which lands on the sign-in page, and another one's) and
 * disconnects the assistant they connected (its access token refused, its refresh token invalid).
 */
const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;
const REDIRECT = 'http://127.0.0.1:9/callback';
let service: TestService;
let browser: Browser | undefined;
beforeAll(async () => {
  service = await startTestService({ env: { STRIPE_SECRET_KEY: '' }, googleTenancy: { probe: async () => 'unknown' } });
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

const mcpCall = (accessToken: string) =>
  fetch(`${service.apiUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

/** An assistant connected in the person's name through the MCP sign-in, from another session of theirs. */
async function connectAssistant(cookie: string): Promise<TestAssistant> {
  const assistant = new TestAssistant(REDIRECT, 'Laptop assistant');
  const transport = new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), { authProvider: assistant });
  await expect(new Client({ name: 'sign-out-everywhere', version: '1' }).connect(transport)).rejects.toThrow();
  const code = await consentInBrowser(new CookieBrowser(service.apiUrl, cookie), assistant.authorizationUrl!, REDIRECT, ['read']);
  await transport.finishAuth(code);
  return assistant;
}

describe('sign out everywhere in the portal', () => {
  it.skipIf(!runBrowserTests)(
    `the Settings button, confirmed, signs this browser and every other session out and disconnects the person's assistants${skipNote}`,
    async () => {
      const person = await createUserInAccount(service, service.demo.accountId, 'member');
      const elsewhere = await signIn(service, person.email, person.password);
      const assistant = await connectAssistant(elsewhere.cookie);
      expect((await mcpCall(assistant.saved!.access_token)).status).toBe(200);

      const portal = await openPortal(browser!, service, DESKTOP);
      try {
        const { page } = portal;
        await signInThroughPage(page, person.email, person.password);
        await page.getByRole('link', { name: 'Settings' }).click();
        await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
        await pageSettled(page);
        const section = page.getByRole('region', { name: 'Sign out everywhere' });
        await section.scrollIntoViewIfNeeded();
        for (const [name, viewport] of [
          ['phone', PHONE],
          ['desktop', DESKTOP],
        ] as const) {
          await page.setViewportSize(viewport);
          await expectAxeClean(page, 'wcag', `settings with sign out everywhere (${name})`);
        }

        // Cancel first: nothing ends.
        await section.getByRole('button', { name: 'Sign out everywhere' }).click();
        const confirm = section.getByRole('group', { name: 'Confirm signing out everywhere' });
        await confirm.waitFor();
        await screenshot(page, 'settings-sign-out-everywhere-confirm');
        await expectAxeClean(page, 'wcag', 'the sign out everywhere confirmation');
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await section.getByRole('button', { name: 'Sign out everywhere' }).waitFor();
        expect((await sessionGraphql(service, elsewhere.cookie, '{ viewer { email } }')).body.data?.viewer.email).toBe(person.email);

        await section.getByRole('button', { name: 'Sign out everywhere' }).click();
        await confirm.getByRole('button', { name: 'Yes, sign out everywhere' }).click();
        await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();

        // The other session ended, and the assistant connected from it is refused and cannot refresh.
        expect((await sessionGraphql(service, elsewhere.cookie, '{ viewer { email } }')).body.errors?.[0]?.extensions).toMatchObject({ status: 401 });
        expect((await mcpCall(assistant.saved!.access_token)).status).toBe(401);
        const refreshed = await fetch(`${service.apiUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: assistant.saved!.refresh_token!, client_id: assistant.client!.client_id }),
        });
        expect((await refreshed.json()).error).toBe('invalid_grant');
        // This browser is signed out too: reloading stays on the sign-in page.
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
        expect(portal.offsite).toEqual([]);
      } finally {
        await portal.close();
      }
    },
    // Chromium, an assistant's sign-in and five axe runs: a minute or more on a busy machine.
    120_000,
  );
});
