import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { fixtureZone } from '../support/fixture-zone.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { runBrowserTests, launchChromium, localOnlyContext, NO_CHROMIUM_REASON, type LocalOnlyContext } from '../support/browser.js';

const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? '/tmp';

let dns: TestDnsServer;
let service: TestService;
let browser: Browser | undefined;
/** The public Query's fields: the grade needs checkDeliverability (the page without it is tested below, stubbed). */
let queryFields: string[] = [];

beforeAll(async () => {
  dns = await startTestDnsServer({ records: fixtureZone });
  service = await startTestService({
    // A dead RDAP bootstrap and a stub sign-in probe: nothing leaves the machine.
    env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '3000', DNS_TRIES: '1', RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none', REGISTRATION_TIMEOUT_MS: '300' },
    googleTenancy: { probe: async () => 'unknown' },
    rateLimits: { public: 10_000 },
  });
  const introspection = await service.pub('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __type(name: "Query") { fields { name } } }' }),
  });
  const fields: { name: string }[] = (await introspection.json()).data?.__type?.fields ?? [];
  queryFields = fields.map((f) => f.name);
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await dns?.close();
});

async function openPage(viewport = { width: 1280, height: 900 }): Promise<LocalOnlyContext & { page: Page }> {
  const local = await localOnlyContext(browser!, { viewport });
  const page = await local.context.newPage();
  await page.goto(`${service.publicUrl}/`);
  return { ...local, page };
}

async function checkDomain(page: Page, domain: string): Promise<void> {
  await page.getByLabel('Domain', { exact: true }).fill(domain);
  await page.getByRole('button', { name: 'Check domain' }).click();
}

describe('the checks page document', () => {
  it('is one HTML document at / with its CSS and script inline and nothing loaded from elsewhere', async () => {
    const response = await service.pub('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<style>');
    expect(html).toContain('<script>');
    // Only inline data: URLs (the icon); no script, stylesheet, font or image from anywhere else.
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="(?!data:)/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('answers HEAD / with the headers and no body, and a POST / is not the page', async () => {
    const head = await service.pub('/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await service.pub('/', { method: 'POST' });
    expect(post.headers.get('content-type')).not.toContain('text/html');
  });
});

describe('the checks page in Chromium', () => {
  it.skipIf(!runBrowserTests)(
    `shows good.test's grade with its breakdown and fixes, each check's status and findings, and opens a check's detail${runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`}`,
    async () => {
      const { context, page, offsite } = await openPage();
      const consoleErrors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      try {
        await checkDomain(page, 'good.test');
        await page.locator('#check-spf').waitFor();
        expect(await page.locator('#result-title').textContent()).toBe('good.test');
        expect(new URL(page.url()).searchParams.get('domain')).toBe('good.test');

        // The grade comes from checkDeliverability: a letter, the score, the six parts and the fixes. A
        // build that lost the field fails here (the page's fallback is the next test's subject).
        expect(queryFields, 'the public schema has no checkDeliverability: the grade cannot be shown').toContain('checkDeliverability');
        expect(await page.locator('#grade').textContent()).toMatch(/^[A-F]$/);
        expect(await page.locator('.summary .score').textContent()).toMatch(/^\d+ \/ 100$/);
        expect(await page.locator('.parts > li').count()).toBe(6);
        expect(await page.locator('[data-part=dmarc] .pts').textContent()).toMatch(/pts$/);
        await page.getByRole('heading', { name: 'What to fix' }).waitFor();

        // Each check shows its status, its summary sentence and its findings.
        expect(await page.locator('#check-spf .pill').textContent()).toBe('Pass');
        expect(await page.locator('#check-spf .sentence').textContent()).toContain('valid SPF record');
        expect(await page.locator('#check-dmarc .pill').textContent()).toBe('Pass');
        expect(await page.locator('#check-dkim .pill').textContent()).toBe('Pass');
        expect(await page.locator('#check-mx .sentence').textContent()).toContain('mx.good.test');
        expect(await page.locator('#check-mtaSts .pill').textContent()).toBe('Fail');
        expect(await page.locator('#check-mtaSts .finding code').allTextContents()).toContain('mta_sts_no_record');
        // The dead RDAP bootstrap is a failed lookup, never a missing registration.
        expect(await page.locator('#check-expiry .pill').textContent()).toBe('Not checked');
        await page.screenshot({ path: `${SCREENSHOTS}/checks-page-desktop.png`, fullPage: true });

        // Opening a check's detail shows its own fields formatted and the full answer as JSON.
        const detail = page.locator('#check-dmarc details');
        expect(await detail.locator('.detail').isVisible()).toBe(false);
        await detail.locator('summary').click();
        await detail.locator('dt', { hasText: 'Effective policy' }).waitFor();
        expect(await detail.locator('dt:has-text("Effective policy") + dd').textContent()).toBe('reject');
        const json = JSON.parse((await detail.locator('pre.json').textContent())!);
        expect(json).toMatchObject({ status: 'pass', domain: 'good.test', policy: 'reject' });
        await page.locator('#check-dmarc').screenshot({ path: `${SCREENSHOTS}/checks-page-detail.png` });

        // The request id is under "Details" below the results, not in the timing line.
        expect(await page.locator('.timing').textContent()).toMatch(/^Checked live in \d+\.\d s\.$/);
        expect(await page.locator('#results > details.tech').textContent()).toMatch(/Request id: [0-9a-f-]{36}/);
        expect(await page.locator('#results').innerText()).not.toMatch(/request id/i);

        expect(consoleErrors).toEqual([]);
        expect(offsite).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(
    `still shows every check, and says the grade is not available, on a server without the checkDeliverability field${runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`}`,
    async () => {
      const { context, page } = await openPage();
      try {
        // Stand in for a build without the grade: GraphQL refuses a document naming an unknown field.
        const documents: string[] = [];
        await page.route('**/graphql', async (route) => {
          const body = route.request().postData() ?? '';
          documents.push(body);
          if (!body.includes('checkDeliverability')) return route.continue();
          return route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({
              errors: [{ message: 'Cannot query field "checkDeliverability" on type "Query".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
            }),
          });
        });
        await checkDomain(page, 'good.test');
        await page.locator('#check-spf').waitFor();
        expect(documents).toHaveLength(2);
        expect(await page.locator('#grade-unavailable').textContent()).toContain('grade is not available');
        expect(await page.locator('#grade').count()).toBe(0);
        expect(await page.locator('#check-spf .pill').textContent()).toBe('Pass');
        expect(await page.locator('#check-mtaSts .pill').textContent()).toBe('Fail');
        expect(await page.locator('.check').count()).toBe(10);
        // The failed registration lookup is not offered as something to fix; MTA-STS's missing record is.
        expect(await page.locator('#fixes').count()).toBe(0);
        expect(await page.locator('#extra-fixes li[data-code=mta_sts_no_record]').count()).toBe(1);
        expect(await page.locator('[data-code=lookup_failed]').count()).toBe(0);

        // The next check goes straight to the document without the grade.
        await checkDomain(page, 'bad.test');
        await page.locator('#result-title', { hasText: 'bad.test' }).waitFor();
        expect(documents).toHaveLength(3);
        expect(await page.locator('#fixes li[data-code=plus_all]').count()).toBe(1);
      } finally {
        await context.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(
    `reads on a 390x844 phone with no sideways scrolling, even with a check's detail open${runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`}`,
    async () => {
      const { context, page } = await openPage({ width: 390, height: 844 });
      try {
        await page.screenshot({ path: `${SCREENSHOTS}/checks-page-phone-empty.png` });
        await checkDomain(page, 'good.test');
        await page.locator('#check-spf').waitFor();
        for (const id of ['#check-spf', '#check-dkim', '#check-blacklist']) await page.locator(`${id} details summary`).click();
        const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })')) as {
          scroll: number;
          inner: number;
        };
        expect(widths.inner).toBe(390);
        expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
        // The search button is a comfortable tap target on a phone.
        const box = await page.getByRole('button', { name: /Check domain/ }).boundingBox();
        expect(box!.height).toBeGreaterThanOrEqual(44);
        await page.screenshot({ path: `${SCREENSHOTS}/checks-page-phone.png`, fullPage: true });
      } finally {
        await context.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(
    `checks the domain of an email address or a link, as the hint says, and says so${runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`}`,
    async () => {
      const { context, page } = await openPage({ width: 390, height: 844 });
      try {
        const sent: string[] = [];
        page.on('request', (r) => {
          if (r.url().endsWith('/graphql')) sent.push(JSON.parse(r.postData() ?? '{}').variables?.domain);
        });
        expect(await page.locator('#domain-hint').textContent()).toMatch(/email address or a link, its domain is checked/);
        await checkDomain(page, 'ada@good.test');
        await page.locator('#check-spf').waitFor();
        expect(sent).toEqual(['good.test']);
        expect(await page.locator('#result-title').textContent()).toBe('good.test');
        expect(await page.locator('#check-spf .pill').textContent()).toBe('Pass');
        expect(await page.getByLabel('Domain', { exact: true }).inputValue()).toBe('good.test');
        expect(await page.locator('#domain-note').textContent()).toBe('Checking good.test, the domain of the address ada@good.test.');
        expect(new URL(page.url()).searchParams.get('domain')).toBe('good.test');
        expect(await page.locator('#error').count()).toBe(0);
        await page.screenshot({ path: `${SCREENSHOTS}/checks-page-email.png` });

        await checkDomain(page, 'https://bad.test/pricing?x=1');
        await page.locator('#result-title', { hasText: 'bad.test' }).waitFor();
        expect(sent).toEqual(['good.test', 'bad.test']);
        expect(await page.locator('#domain-note').textContent()).toBe('Checking bad.test, the domain of the link you typed.');
      } finally {
        await context.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(
    `words a refusal for a person: no HTTP status or code in view, the request id only under "Details"${runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`}`,
    async () => {
      const { context, page } = await openPage({ width: 390, height: 844 });
      try {
        const ids: string[] = [];
        page.on('response', (r) => {
          if (r.url().endsWith('/graphql')) ids.push(r.headers()['x-request-id'] ?? '');
        });
        await checkDomain(page, 'not a domain');
        const alert = page.locator('#error');
        await alert.waitFor();
        expect(await alert.locator('strong').textContent()).toBe('That is not a domain we can check');
        expect(await alert.locator('.error-detail').textContent()).toBe(
          '“not a domain” is not a domain name. Type just the domain, such as example.com: letters, digits and hyphens separated by dots.',
        );
        expect(await page.getByLabel('Domain', { exact: true }).getAttribute('aria-invalid')).toBe('true');
        // Nothing technical in view: no status, no code, no id until "Details" is opened.
        const visible = await alert.innerText();
        expect(visible).not.toMatch(/HTTP|400|invalid_domain|request id/i);
        expect(ids).toHaveLength(1);
        const details = alert.locator('details.tech');
        expect(await details.locator('li').first().isVisible()).toBe(false);
        await details.locator('summary').click();
        expect(await details.innerText()).toContain(`Request id: ${ids[0]}`);
        expect(await details.innerText()).toMatch(/The API said: .*not a valid domain name.*\(invalid_domain\)/);
        await page.screenshot({ path: `${SCREENSHOTS}/checks-page-bad-input.png` });

        await checkDomain(page, '192.0.2.1');
        await page.locator('#error .error-detail', { hasText: 'is an IP address' }).waitFor();
        expect(await page.locator('.check').count()).toBe(0);

        // Too many checks: the wait in words, from Retry-After.
        await page.route('**/graphql', (route) =>
          route.fulfill({
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '42', 'x-request-id': 'req-429' },
            body: JSON.stringify({ errors: [{ message: 'Too many requests.', extensions: { code: 'rate_limited', status: 429 } }] }),
          }),
        );
        await checkDomain(page, 'good.test');
        await page.locator('#error strong', { hasText: 'Too many checks for now' }).waitFor();
        expect(await page.locator('#error .error-detail').textContent()).toBe('You have run many checks in a short time. Try again in 42 seconds.');
        expect(await page.locator('#error').innerText()).not.toMatch(/429|req-429|rate_limited/);
        expect(await page.locator('#error details.tech').textContent()).toContain('Request id: req-429');

        // The API out of reach: a sentence, the browser's words under "Details".
        await page.unroute('**/graphql');
        await page.route('**/graphql', (route) => route.abort('connectionrefused'));
        await checkDomain(page, 'good.test');
        await page.locator('#error strong', { hasText: 'Could not reach the checks' }).waitFor();
        expect(await page.locator('#error .error-detail').textContent()).toBe('Check your connection and try again.');
        expect(await page.locator('#error').innerText()).not.toMatch(/graphql|Failed to fetch/);
      } finally {
        await context.close();
      }
    },
  );

  it.skipIf(!runBrowserTests)(
    `asks for a domain without calling the API when the box is empty, and runs ?domain= on load${runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`}`,
    async () => {
      const { context, page } = await openPage();
      try {
        const calls: string[] = [];
        page.on('request', (r) => {
          if (r.url().endsWith('/graphql')) calls.push(r.url());
        });
        await page.getByRole('button', { name: 'Check domain' }).click();
        expect(await page.locator('#domain-error').textContent()).toBe('Type a domain name, such as example.com.');
        expect(calls).toEqual([]);

        await page.goto(`${service.publicUrl}/?domain=bad.test`);
        await page.locator('#check-spf').waitFor();
        expect(await page.getByLabel('Domain', { exact: true }).inputValue()).toBe('bad.test');
        expect(await page.locator('#check-spf .pill').textContent()).not.toBe('Pass');
        expect(await page.locator('#check-mx .pill').textContent()).not.toBe('Pass');
        expect(await page.locator('#grade').textContent()).toMatch(/^[D-F]$/);
        await page.screenshot({ path: `${SCREENSHOTS}/checks-page-bad-domain.png`, fullPage: true });
      } finally {
        await context.close();
      }
    },
  );
});
