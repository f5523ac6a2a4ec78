import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemorySandboxStore } from '../../clients/payments/memory-sandbox-store.js';
import { handleSandboxCardForm, showSandboxCardPage } from '../../clients/payments/sandbox-card-form.js';
import { SANDBOX_CARD_PATH, SandboxProcessor } from '../../clients/payments/sandbox-processor.js';
import type { SandboxStore } from '../../clients/payments/sandbox-store.js';
import { SANDBOX_PAGE_HEADERS, renderSandboxCardPage, renderSandboxPage } from '../../web/sandbox-card-page.js';

// A minimal HTTP adapter, standing in for the lead's route, so the page is tested as a browser
// uses it: GET the link, POST the urlencoded form, follow a 303.
let server: Server;
let baseUrl = '';
let store: SandboxStore & { subscriptions: () => unknown };
let processor: SandboxProcessor;
let clock = new Date('2026-11-25T10:00:00Z');

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', baseUrl);
    if (url.pathname !== SANDBOX_CARD_PATH) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const run = async (): Promise<void> => {
        const token = url.searchParams.get('token');
        if (req.method === 'GET') {
          const page = await showSandboxCardPage(token, store, { now: () => clock });
          res.writeHead(page.status, SANDBOX_PAGE_HEADERS).end(renderSandboxPage(page.view));
          return;
        }
        const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        const answer = await handleSandboxCardForm(token, fields, store, { now: () => clock });
        if (answer.ok) res.writeHead(303, { location: answer.redirectTo }).end();
        else res.writeHead(answer.status, SANDBOX_PAGE_HEADERS).end(renderSandboxPage(answer.view));
      };
      run().catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  clock = new Date('2026-11-25T10:00:00Z');
  store = createMemorySandboxStore();
  processor = new SandboxProcessor({ apiUrl: baseUrl, store, now: () => clock });
});

async function newLink(): Promise<string> {
  const link = await processor.createSetupLink({
    customerId: 'sbx_cus_9',
    successUrl: 'https://app.example/card-saved?x=1',
    cancelUrl: 'https://app.example/cancelled',
  });
  return link.url;
}

function postForm(link: string, fields: Record<string, string>): Promise<Response> {
  return fetch(link, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('the sandbox card page', () => {
  it('says at the top that it is a sandbox, lists both test numbers and shows a card form', async () => {
    const response = await fetch(await newLink());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    const banner = html.indexOf('SANDBOX');
    expect(banner).toBeGreaterThan(-1);
    expect(banner).toBeLessThan(html.indexOf('<form'));
    expect(html).toContain('No real card is charged');
    expect(html).toContain('4242 4242 4242 4242');
    expect(html).toContain('4000 0000 0000 0341');
    for (const field of ['card_number', 'expiry', 'cvc', 'name']) expect(html).toContain(`name="${field}"`);
    expect(html).toContain('name="viewport"');
    expect(html).toContain('href="https://app.example/cancelled"');
  });

  it('saves the 4242 card and redirects 303 to success_url', async () => {
    const response = await postForm(await newLink(), { card_number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123', name: 'Ada Lovelace' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('https://app.example/card-saved?x=1');
    expect(await processor.getPaymentMethod('sbx_cus_9')).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
  });

  it('saves the 0341 card, which is then declined when charged', async () => {
    const response = await postForm(await newLink(), { card_number: '4000000000000341' });
    expect(response.status).toBe(303);
    expect((await store.getCard('sbx_cus_9'))?.outcome).toBe('decline');
  });

  it('keeps only brand, last four and expiry, never the full number or the CVC', async () => {
    await postForm(await newLink(), { card_number: '4242424242424242', cvc: '987' });
    const saved = JSON.stringify(await store.getCard('sbx_cus_9'));
    expect(saved).not.toContain('4242424242424242');
    expect(saved).not.toContain('987');
  });

  it('works once: a second post and a second visit say the link was used', async () => {
    const link = await newLink();
    expect((await postForm(link, { card_number: '4242424242424242' })).status).toBe(303);
    const again = await postForm(link, { card_number: '4000000000000341' });
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('already used');
    expect((await fetch(link)).status).toBe(410);
    expect((await store.getCard('sbx_cus_9'))?.last4).toBe('4242');
  });

  it('saves one card when the same link is posted twice at the same moment', async () => {
    const link = await newLink();
    const answers = await Promise.all([postForm(link, { card_number: '4242424242424242' }), postForm(link, { card_number: '4000000000000341' })]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 410]);
  });

  it('expires after an hour', async () => {
    const link = await newLink();
    clock = new Date(clock.getTime() + 60 * 60 * 1000 + 1);
    const response = await postForm(link, { card_number: '4242424242424242' });
    expect(response.status).toBe(410);
    expect(await response.text()).toContain('expired');
    expect(await store.getCard('sbx_cus_9')).toBeNull();
  });

  it('answers 404 for a token it never issued', async () => {
    expect((await fetch(`${baseUrl}${SANDBOX_CARD_PATH}?token=not-a-real-token`)).status).toBe(404);
    expect((await postForm(`${baseUrl}${SANDBOX_CARD_PATH}?token=not-a-real-token`, { card_number: '4242424242424242' })).status).toBe(404);
  });

  it('shows the form again with the reason for a number that fails the Luhn check, and the link still works', async () => {
    const link = await newLink();
    const response = await postForm(link, { card_number: '4242424242424241', name: 'Ada' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('check digit');
    expect(html).toContain('role="alert"');
    expect(html).toContain('value="Ada"');
    expect(html).not.toContain('4242424242424241');
    expect((await postForm(link, { card_number: '4242424242424242' })).status).toBe(303);
  });

  it('refuses a well-formed real card number: only the test numbers are taken', async () => {
    const response = await postForm(await newLink(), { card_number: '5555555555554444' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('only takes the test numbers');
  });

  it('refuses a missing number, a past expiry and a malformed CVC, each with its own sentence', async () => {
    const link = await newLink();
    const cases: [Record<string, string>, string][] = [
      [{ card_number: '' }, 'Enter a card number'],
      [{ card_number: '4242abcd' }, '12 to 19 digits'],
      [{ card_number: '4242424242424242', expiry: '01 / 24' }, 'has expired'],
      [{ card_number: '4242424242424242', expiry: '13 / 30' }, 'month is 01 to 12'],
      [{ card_number: '4242424242424242', cvc: '12' }, '3 or 4 digits'],
    ];
    for (const [fields, sentence] of cases) {
      const answer = await handleSandboxCardForm(new URL(link).searchParams.get('token'), fields, store, { now: () => clock });
      expect(answer).toMatchObject({ ok: false, status: 400, detail: expect.stringContaining(sentence) });
    }
    expect(await store.getCard('sbx_cus_9')).toBeNull();
  });

  it('takes the token from the hidden form field when the query has none', async () => {
    const token = new URL(await newLink()).searchParams.get('token') as string;
    const answer = await handleSandboxCardForm(null, { token, card_number: '4242424242424242' }, store, { now: () => clock });
    expect(answer).toEqual({ ok: true, status: 303, redirectTo: 'https://app.example/card-saved?x=1', customerId: expect.stringMatching(/^sbx_cus_/) });
  });

  it('escapes what it echoes back', () => {
    const html = renderSandboxCardPage({
      formAction: '?token=t',
      token: 't"><script>',
      cancelUrl: 'https://x/"><b>',
      error: '<img src=x>',
      values: { name: '<script>alert(1)</script>' },
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
