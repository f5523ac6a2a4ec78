import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_DOMAINS, orderBody, postJson, saveCardThroughSandboxPage, startOrderingService, type OrderingHarness } from './support/ordering-fixture.js';

// A code's redemptions are taken before the card is charged, under a lock on the code, so placements
// racing for the last one cannot both get the discount; a placement that charges nothing gives its
// redemption back.
let h: OrderingHarness;
const free = (() => {
  let i = 30;
  return () => FREE_DOMAINS[i++]!;
})();

beforeAll(async () => {
  h = await startOrderingService({ rateLimits: { order: 1000 } });
});
afterAll(async () => {
  await h?.close();
});

async function addCode(code: string, maxRedemptions: number) {
  const db = h.service.services.db;
  return db
    .insertInto('promotion_codes')
    .values({
      account_id: h.service.demo.accountId,
      code,
      plan_id: null,
      percent_off: 10,
      amount_off: null,
      currency: null,
      duration: 'once',
      duration_in_months: null,
      expires_at: null,
      max_redemptions: maxRedemptions,
      times_redeemed: 0,
      processor_ref: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

const timesRedeemed = async (id: number) =>
  (await h.service.services.db.selectFrom('promotion_codes').select('times_redeemed').where('id', '=', id).executeTakeFirstOrThrow()).times_redeemed;
const place = (body: unknown, key: string) => postJson(h.service, '/v1/orders', body, { headers: { 'idempotency-key': key } });

describe("a promotion code's last redemption", () => {
  it('two placements racing for it: one gets the discount, the other is a 400 that charged nothing', async () => {
    await saveCardThroughSandboxPage(h.service, '4242424242424242');
    const { id } = await addCode('LASTONE', 1);
    const answers = await Promise.all([
      place(orderBody([free()], 1, { promotion_code: 'LASTONE' }), 'race-for-code-a'),
      place(orderBody([free()], 1, { promotion_code: 'LASTONE' }), 'race-for-code-b'),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const refused = answers.find((a) => a.status === 400)!;
    expect(refused.body.code).toBe('promotion_code_used_up');
    expect(refused.body.detail).toMatch(/nothing was charged|used the 1 time/);
    expect(await timesRedeemed(id)).toBe(1);
    const charged = answers.find((a) => a.status === 200)!;
    expect(charged.body.charged.amount).toBe(315); // 350 less 10%
  });

  it('a declined card gives the redemption back, so the code still works', async () => {
    const { id } = await addCode('GIVEBACK', 1);
    await saveCardThroughSandboxPage(h.service, '4000000000000341');
    const declined = await place(orderBody([free()], 1, { promotion_code: 'GIVEBACK' }), 'declined-with-code');
    expect(declined.status).toBe(402);
    expect(await timesRedeemed(id)).toBe(0);
    await saveCardThroughSandboxPage(h.service, '4242424242424242');
    const accepted = await place(orderBody([free()], 1, { promotion_code: 'GIVEBACK' }), 'accepted-with-code');
    expect(accepted.status).toBe(200);
    expect(await timesRedeemed(id)).toBe(1);
  });
});
