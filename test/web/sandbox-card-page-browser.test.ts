import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, localOnlyContext, NO_CHROMIUM_REASON } from '../support/browser.js';

const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? '/tmp';
const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;

let service: TestService;
let browser: Browser | undefined;

beforeAll(async () => {
  // No DNS, RDAP or processor on the network: the sandbox processor is the default without Stripe keys.
  service = await startTestService({ googleTenancy: { probe: async () => 'unknown' } });
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

async function setupLink(successUrl: string, cancelUrl: string): Promise<string> {
  const response = await service.api('/v1/payment-method/setup-link', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ success_url: successUrl, cancel_url: cancelUrl }),
  });
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.url).toMatch(new RegExp(`^${service.apiUrl}/sandbox/card\\?token=`));
  return body.url as string;
}

describe('the sandbox card page in Chromium', () => {
  it.skipIf(!runBrowserTests)(`says SANDBOX, refuses a real card number without echoing it, then saves 4242 and lands on success_url${skipNote}`, async () => {
    expect((await (await service.api('/v1/payment-method')).json()).on_file).toBe(false);
    // success_url on another origin (the public listener's port), as a customer's site would be:
    // the page's form-action policy must let the redirect after saving leave the API's origin.
    const successUrl = `${service.publicUrl}/healthz?card=saved`;
    const url = await setupLink(successUrl, `${service.apiUrl}/healthz?card=cancelled`);

    const { context, offsite } = await localOnlyContext(browser!, { viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(url);
      const notice = page.getByRole('note');
      expect(await notice.isVisible()).toBe(true);
      expect(await notice.textContent()).toMatch(/SANDBOX[\s\S]*No real card is charged/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/Save a card/);
      const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })')) as { scroll: number; inner: number };
      expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      await page.screenshot({ path: `${SCREENSHOTS}/sandbox-card-page-phone.png`, fullPage: true });

      // A well-formed real-looking number is refused with a sentence, and the field comes back empty.
      await page.getByLabel('Card number').fill('4111 1111 1111 1111');
      await page.getByLabel(/Expiry/).fill('12 / 30');
      await page.getByRole('button', { name: 'Save card' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toMatch(/only takes the test numbers/);
      expect(await page.getByLabel('Card number').inputValue()).toBe('');
      expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');

      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel(/Expiry/).fill('12 / 30');
      await page.getByLabel('CVC').fill('123');
      await page.getByLabel('Name on card').fill('Ada Lovelace');
      await Promise.all([page.waitForURL(successUrl), page.getByRole('button', { name: 'Save card' }).click()]);
      expect(page.url()).toBe(successUrl);
      expect(offsite).toEqual([]);
    } finally {
      await context.close();
    }

    const card = await (await service.api('/v1/payment-method')).json();
    expect(card).toMatchObject({ on_file: true, brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
  });

  it.skipIf(!runBrowserTests)(`sends the person back to cancel_url from the cancel link${skipNote}`, async () => {
    const cancelUrl = `${service.apiUrl}/healthz?card=cancelled`;
    const url = await setupLink(`${service.apiUrl}/healthz?card=saved`, cancelUrl);
    const { context } = await localOnlyContext(browser!);
    try {
      const page = await context.newPage();
      await page.goto(url);
      await Promise.all([page.waitForURL(cancelUrl), page.getByRole('link', { name: /Cancel/ }).click()]);
      expect(page.url()).toBe(cancelUrl);
    } finally {
      await context.close();
    }
  });
});
