import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_DOMAINS, orderBody, postJson, saveCardThroughSandboxPage, startOrderingService, type OrderingHarness } from './support/ordering-fixture.js';

// Domains are held for a placement before its card is charged, so two placements of one domain
// (here by two accounts at once) cannot both charge: one order, one charge, and a 400 for the other.
let h: OrderingHarness;

beforeAll(async () => {
  h = await startOrderingService({ rateLimits: { order: 1000 } });
});
afterAll(async () => {
  await h?.close();
});

const charges = async () =>
  (
    await h.service.services.db
      .selectFrom('sandbox_subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

describe('two placements of one domain at once', () => {
  it('one is placed and charged; the other is refused with the domain named and nothing charged', async () => {
    const other = await h.service.seedAccount();
    await saveCardThroughSandboxPage(h.service, '4242424242424242');
    await saveCardThroughSandboxPage(h.service, '4242424242424242', other.key);
    const before = Number(await charges());
    const domain = FREE_DOMAINS[35]!;
    const body = orderBody([domain], 1);
    const answers = await Promise.all([
      postJson(h.service, '/v1/orders', body, { headers: { 'idempotency-key': 'hold-race-account-a' } }),
      postJson(h.service, '/v1/orders', body, { key: other.key, headers: { 'idempotency-key': 'hold-race-account-b' } }),
    ]);
    expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 400]);
    const refused = answers.find((a) => a.status === 400)!;
    expect(refused.body.problems[0].domain).toBe(domain);
    expect(['domain_being_ordered', 'domain_on_another_order']).toContain(refused.body.problems[0].issues[0].code);
    expect(Number(await charges())).toBe(before + 1);
    const holds = await h.service.services.db.selectFrom('domain_reservations').selectAll().where('domain', '=', domain).execute();
    expect(holds).toEqual([]);
  });

  it('a placement that charged nothing lets its domains go at once', async () => {
    const domain = FREE_DOMAINS[36]!;
    await saveCardThroughSandboxPage(h.service, '4000000000000341');
    const declined = await postJson(h.service, '/v1/orders', orderBody([domain], 1), { headers: { 'idempotency-key': 'hold-declined-1' } });
    expect(declined.status).toBe(402);
    const other = await h.service.seedAccount();
    await saveCardThroughSandboxPage(h.service, '4242424242424242', other.key);
    const placed = await postJson(h.service, '/v1/orders', orderBody([domain], 1), { key: other.key, headers: { 'idempotency-key': 'hold-after-decline' } });
    expect(placed.status).toBe(200);
  });
});
