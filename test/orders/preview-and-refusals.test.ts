import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { graphql } from '../support/test-service.js';
import { verificationRecords } from '../support/domain-verification.js';
import { FREE_DOMAINS, mailboxes, orderBody, postJson, startOrderingService, type OrderingHarness } from './support/ordering-fixture.js';

let h: OrderingHarness;
beforeAll(async () => {
  // The in-process DNS server answers late on a busy machine, and a lookup that times out refuses the
  // domain: the 500-domain preview asks a thousand questions at once, so the fixture's 400 ms was a
  // 400 answer at load 10. Nothing in this file provokes a DNS timeout.
  h = await startOrderingService({ env: { DNS_TIMEOUT_MS: '5000', DNS_TRIES: '1' } });
});
afterAll(async () => {
  await h?.close();
});

const preview = (body: unknown, key?: string) => postJson(h.service, '/v1/orders/preview', body, key ? { key } : {});
/** Refusals must be the same on place: a passing preview is accepted, a refused one is refused alike. */
const place = (body: unknown) => postJson(h.service, '/v1/orders', body, { headers: { 'idempotency-key': `refusal-${Math.random().toString(36).slice(2)}` } });

describe('the preview answer (SPEC 2.3)', () => {
  it('prices from the plan: quantity, unit_amount, interval, mailboxes_per_unit, total, first_invoice', async () => {
    const response = await preview(orderBody([FREE_DOMAINS[0]!, FREE_DOMAINS[1]!], 3));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      ok: true,
      sku: 'google-inbox-unwarmed',
      domains: 2,
      mailboxes: 6,
      quantity: 6,
      price: { unit_amount: 350, currency: 'usd', interval: 'month', mailboxes_per_unit: 1, total: 2100, first_invoice: 2100 },
      discount: null,
      problems: [],
    });
  });

  it('creates nothing', async () => {
    await preview(orderBody([FREE_DOMAINS[2]!], 1));
    const dashboard = await (await h.service.api('/v1/portal/dashboard')).json();
    expect(JSON.stringify(dashboard)).not.toContain(FREE_DOMAINS[2]);
  });

  it.each([
    ['WELCOME20', 'once', 'first_invoice', 2100 - 420],
    ['SPRING3', 'repeating', 'first_3_months', 2100 - 525],
    ['LOYAL10', 'forever', 'every_invoice', 2100 - 210],
    ['firstfree', 'once', 'first_invoice', 0],
  ])('promotion code %s lasts %s: applies_to %s, first_invoice %i, total unchanged', async (code, duration, appliesTo, first) => {
    const response = await preview(orderBody([FREE_DOMAINS[0]!, FREE_DOMAINS[1]!], 3, { promotion_code: code }));
    expect(response.status).toBe(200);
    expect(response.body.price).toMatchObject({ total: 2100, first_invoice: first });
    expect(response.body.discount).toMatchObject({ code: code.toUpperCase(), duration, applies_to: appliesTo });
  });

  it('a check that cannot tell is a warning grouped by domain, not a refusal', async () => {
    const response = await preview(orderBody(['maybe-tenant.com', 'flaky-dns.com', FREE_DOMAINS[3]!], 1));
    expect(response.status).toBe(200);
    expect(response.body.ok).toBe(true);
    const byDomain = Object.fromEntries(response.body.problems.map((p: any) => [p.domain, p.issues.map((i: any) => `${i.severity}:${i.code}`)]));
    expect(byDomain['maybe-tenant.com']).toEqual(['warning:tenancy_unknown']);
    expect(byDomain['flaky-dns.com']).toContain('warning:dns_unverified');
    expect(byDomain[FREE_DOMAINS[3]!]).toBeUndefined();
  });

  it('answers the same through GraphQL', async () => {
    const result = await graphql(
      h.service,
      'query($o: OrderInput!) { previewOrder(order: $o) { quantity price { total firstInvoice } discount { appliesTo } } }',
      {
        o: {
          sku: 'google-inbox-unwarmed',
          promotionCode: 'SPRING3',
          domains: [{ domain: FREE_DOMAINS[0], mailboxes: [{ firstName: 'A', lastName: 'B', localPart: 'ab' }] }],
        },
      },
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.previewOrder).toEqual({ quantity: 1, price: { total: 350, firstInvoice: 263 }, discount: { appliesTo: 'first_3_months' } });
  });

  it('needs only the read scope', async () => {
    const { key } = await createApiKey(h.service.services.db, h.service.demo.accountId, ['read']);
    expect((await preview(orderBody([FREE_DOMAINS[0]!], 1), key)).status).toBe(200);
    expect((await postJson(h.service, '/v1/orders', orderBody([FREE_DOMAINS[0]!], 1), { key, headers: { 'idempotency-key': 'read-only-key' } })).status).toBe(
      403,
    );
  });
});

describe('refusals, the same on preview and on place', () => {
  const both = async (body: unknown) => [await preview(body), await place(body)];

  it.each([
    ['price at the top', { price: 100 }],
    ['unit_amount at the top', { unit_amount: 1 }],
    ['total at the top', { total: 0 }],
    ['price_id at the top', { price_id: 'price_x' }],
  ])('a price-like field (%s) is a 400, never ignored', async (_label, extra) => {
    for (const response of await both(orderBody([FREE_DOMAINS[4]!], 1, extra))) {
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('price_in_body');
    }
  });

  it('a price-like field nested in a domain or a mailbox is a 400 too', async () => {
    const inDomain = orderBody([FREE_DOMAINS[4]!], 1) as any;
    inDomain.domains[0].amount = 5;
    const inMailbox = orderBody([FREE_DOMAINS[4]!], 1) as any;
    inMailbox.domains[0].mailboxes[0].unit_amount = 5;
    for (const body of [inDomain, inMailbox]) {
      for (const response of await both(body)) {
        expect(response.status).toBe(400);
        expect(response.body.detail).toMatch(/never what to charge/);
      }
    }
  });

  it('any other unknown field is a 422, the same class as a field of the wrong type', async () => {
    for (const response of await both(orderBody([FREE_DOMAINS[4]!], 1, { colour: 'blue' })))
      expect([response.status, response.body.code]).toEqual([422, 'unknown_field']);
    for (const response of await both({ sku: 'google-inbox-unwarmed', domains: 'x.com' })) expect(response.status).toBe(422);
  });

  it('a sku not in the catalogue is a 404; one that cannot be ordered this way is a 409 giving why_not', async () => {
    for (const response of await both(orderBody([FREE_DOMAINS[4]!], 1, { sku: 'no-such-sku' }))) expect(response.status).toBe(404);
    for (const response of await both(orderBody([FREE_DOMAINS[4]!], 1, { sku: 'microsoft-inbox' }))) {
      expect(response.status).toBe(409);
      expect(response.body.detail).toMatch(/set up by our team/);
      expect(response.body.why_not).toMatch(/Ask for a plan/);
    }
  });

  it.each([
    ['NOPE-CODE', 'promotion_code_unknown', /unknown/],
    ['SUMMER24', 'promotion_code_expired', /expired/],
    ['LAUNCH50', 'promotion_code_used_up', /used/],
    ['WARMUP15', 'promotion_code_wrong_plan', /google-inbox-warmed/],
  ])('promotion code %s is a 400 that says which (%s)', async (code, expected, words) => {
    for (const response of await both(orderBody([FREE_DOMAINS[4]!], 1, { promotion_code: code }))) {
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(expected);
      expect(response.body.detail).toMatch(words);
    }
  });

  it('domain problems are a 400 with a detail sentence and problems grouped by domain', async () => {
    const body = {
      sku: 'google-inbox-unwarmed',
      domains: [
        { domain: 'not a domain', mailboxes: mailboxes(1) },
        { domain: FREE_DOMAINS[5], mailboxes: mailboxes(1) },
        { domain: FREE_DOMAINS[5]!.toUpperCase(), mailboxes: mailboxes(1) },
        { domain: 'never-registered-anywhere.com', mailboxes: mailboxes(1) },
        { domain: 'no-delegation.com', mailboxes: mailboxes(1) },
        { domain: 'taken-tenant.com', mailboxes: mailboxes(1) },
        { domain: `mail.${FREE_DOMAINS[6]}`, mailboxes: mailboxes(1) },
        {
          domain: FREE_DOMAINS[7],
          forward_to: 'http://bad/url',
          mailboxes: [
            { first_name: '', last_name: 'Lee', local_part: 'jo' },
            { first_name: 'Jo', last_name: 'Lee', local_part: 'JO' },
            { first_name: 'Jo', last_name: 'Lee', local_part: 'bad..dots' },
            { first_name: 'Jo', last_name: 'Lee', local_part: 'postmaster' },
          ],
        },
        { domain: FREE_DOMAINS[8], mailboxes: [] },
      ],
    };
    for (const response of await both(body)) {
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('order_problems');
      expect(response.body.detail).toMatch(/^The order cannot be placed as sent: \d+ problems on \d+ domains/);
      const codes = Object.fromEntries(response.body.problems.map((p: any) => [p.index, p.issues.map((i: any) => i.code)]));
      expect(codes[0]).toEqual(['invalid_domain']);
      expect(codes[1]).toBeUndefined();
      expect(codes[2]).toEqual(['duplicate_domain']);
      expect(codes[3]).toEqual(['domain_not_registered']);
      expect(codes[4]).toEqual(['domain_not_delegated']);
      expect(codes[5]).toEqual(['attached_to_google_tenant']);
      expect(codes[6]).toEqual(['not_registrable_domain']);
      expect(codes[7]).toEqual(
        expect.arrayContaining(['invalid_forward_to', 'invalid_first_name', 'duplicate_local_part', 'invalid_local_part', 'reserved_local_part']),
      );
      expect(codes[8]).toEqual(['no_mailboxes']);
      expect(response.body.problems.find((p: any) => p.index === 7).issues.find((i: any) => i.code === 'duplicate_local_part').field).toBe(
        'domains[7].mailboxes[1].local_part',
      );
    }
  });

  it('at most 500 domains and 2,000 mailboxes per order', async () => {
    const manyDomains = { sku: 'google-inbox-unwarmed', domains: Array.from({ length: 501 }, (_, i) => ({ domain: `d${i}.com`, mailboxes: mailboxes(1) })) };
    for (const response of await both(manyDomains)) expect([response.status, response.body.code]).toEqual([400, 'too_many_domains']);
    const manyMailboxes = {
      sku: 'google-inbox-unwarmed',
      domains: Array.from({ length: 5 }, (_, i) => ({
        domain: `m${i}.com`,
        mailboxes: Array.from({ length: 401 }, (_, j) => ({ first_name: 'A', last_name: 'B', local_part: `a${j}` })),
      })),
    };
    for (const response of await both(manyMailboxes)) expect([response.status, response.body.code]).toEqual([400, 'too_many_mailboxes']);
  });

  it('500 domains with 2,000 mailboxes is accepted by preview', async () => {
    const bulk = Array.from({ length: 500 }, (_, i) => `bulk-${i}.com`);
    h.dns.setRecords([...bulk.map((name) => ({ name, type: 'NS' as const, data: 'ns1.dns-host.net' })), ...verificationRecords(bulk)]);
    try {
      const body = { sku: 'google-inbox-unwarmed', domains: Array.from({ length: 500 }, (_, i) => ({ domain: `bulk-${i}.com`, mailboxes: mailboxes(4) })) };
      const response = await preview(body);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ domains: 500, mailboxes: 2000, quantity: 2000 });
    } finally {
      const { orderingZone } = await import('./support/ordering-fixture.js');
      h.dns.setRecords(orderingZone());
    }
  }, 60_000);
});
