import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OpenedDatabase } from '../../db/open-database.js';
import { openMigratedTestDatabase } from '../support/test-database.js';

// The dashboard reads each domain's mailbox count from domains.mailbox_count (no count per domain per
// read); triggers on mailboxes keep it, whoever writes the mailboxes and however many rows at once.
let database: OpenedDatabase;
beforeAll(async () => {
  database = await openMigratedTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

it('domains.mailbox_count follows inserts of many rows, deletes and moves', async () => {
  const db = database.db;
  const account = await db.insertInto('accounts').values({ name: 'Counts' }).returning('id').executeTakeFirstOrThrow();
  const plan = await db
    .insertInto('plans')
    .values({
      account_id: account.id,
      sku: 'count-plan',
      product: 'p',
      description: 'd',
      unit_amount: 1,
      currency: 'usd',
      interval: 'month',
      mailboxes_per_unit: 1,
      orderable: true,
      why_not: null,
      processor_price_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const order = await db
    .insertInto('orders')
    .values({
      account_id: account.id,
      plan_id: plan.id,
      reference: 'ORD-COUNT',
      subscription_id: 'sub_count',
      status: 'active',
      quantity: 3,
      unit_amount: 1,
      currency: 'usd',
      interval: 'month',
      sequencer: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const [a, b] = await db
    .insertInto('domains')
    .values(
      ['count-a.com', 'count-b.com'].map((domain) => ({
        account_id: account.id,
        order_id: order.id,
        workspace_id: null,
        domain,
        build_state: 'live',
        forward_to: null,
        watched_since: null,
      })),
    )
    .returning('id')
    .execute();
  const counts = async () =>
    (await db.selectFrom('domains').select(['id', 'mailbox_count']).where('account_id', '=', account.id).orderBy('domain').execute()).map(
      (d) => d.mailbox_count,
    );

  expect(await counts()).toEqual([0, 0]);
  // One statement, rows for both domains.
  await db
    .insertInto('mailboxes')
    .values([
      { domain_id: a!.id, first_name: 'A', last_name: 'A', local_part: 'a1' },
      { domain_id: a!.id, first_name: 'A', last_name: 'A', local_part: 'a2' },
      { domain_id: a!.id, first_name: 'A', last_name: 'A', local_part: 'a3' },
      { domain_id: b!.id, first_name: 'B', last_name: 'B', local_part: 'b1' },
    ])
    .execute();
  expect(await counts()).toEqual([3, 1]);
  await db.deleteFrom('mailboxes').where('local_part', '=', 'a1').execute();
  expect(await counts()).toEqual([2, 1]);
  await db.updateTable('mailboxes').set({ domain_id: b!.id }).where('local_part', '=', 'a2').execute();
  expect(await counts()).toEqual([1, 2]);
  // Agrees with a count of the rows themselves.
  const actual = await db
    .selectFrom('mailboxes')
    .select(['domain_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('domain_id')
    .orderBy('domain_id')
    .execute();
  expect(actual.map((r) => Number(r.n))).toEqual([1, 2]);
});
