import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { accountReadingRows } from '../../operations/operation-table.js';
import { startTestService, graphql, type TestService } from '../support/test-service.js';
import type { AnalyticsQuery, BillingQuery, DashboardQuery } from '../../operations/generated/operations.js';
import type { Wire } from '../../operations/wire-type.js';
import { rowAnswer } from '../../operations/row-answer.js';
import { schema } from '../../schema/index.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ socketless: true });
});
afterAll(async () => {
  await service?.close();
});

/** A REST answer of a paged list: the connection's items and has_more lifted where the list was (operations/page-answer.ts). */
type Lifted<T, Connection extends keyof T, Items> = Wire<Omit<T, Connection>> & Items & { has_more: boolean };
type DashboardAnswer = DashboardQuery['dashboard'];
type BillingAnswer = BillingQuery['billing'];

const document = (name: string) => readFileSync(new URL(`../../operations/documents/${name}.graphql`, import.meta.url), 'utf8');

describe('every reading path', () => {
  for (const row of accountReadingRows) {
    it(`${row.path} answers the same through REST and /graphql`, async () => {
      const query = row.path.endsWith('/analytics') ? '?period=7d' : '';
      const rest = await service.api(row.path + query);
      expect(rest.status).toBe(200);
      expect(rest.headers.get('content-type')).toContain('application/json');
      const restBody = await rest.json();
      // GraphQL names the period P7D (an enum name cannot start with a digit); REST spells it 7d.
      const gql = await graphql(service, document(row.document), row.path.endsWith('/analytics') ? { period: 'P7D' } : {});
      expect(gql.body.errors).toBeUndefined();
      // Named for the wire, unwrapped and reshaped (a paged list's page lifted) as the door does it.
      const data = rowAnswer(schema, row, gql.body.data);
      expect(restBody).toEqual(data);
    });
  }

  it('/v1/portal/analytics spells the period 7d where /graphql names it P7D', async () => {
    const row = accountReadingRows.find((r) => r.path.endsWith('/analytics'))!;
    expect(row).toBeDefined();
    const restBody = await (await service.api(`${row.path}?period=7d`)).json();
    const gql = await graphql(service, document(row.document), { period: 'P7D' });
    const data = row.unwrap ? gql.body.data[row.unwrap] : gql.body.data;
    expect(data.period).toBe('P7D');
    expect(restBody.period).toBe('7d');
  });
});

describe('what the demo account shows', () => {
  it('the dashboard groups domains by order with build states and mailbox counts', async () => {
    const body = (await (await service.api('/v1/portal/dashboard')).json()) as Lifted<
      DashboardAnswer,
      'domainsConnection',
      { orders: Wire<DashboardAnswer['domainsConnection']['orders']> }
    >;
    expect(body.order_count).toBe(3);
    expect(body.domain_count).toBe(5);
    const states = new Set(body.orders.flatMap((o) => o.domains.map((d) => d.build_state)));
    expect(states).toEqual(new Set(['live', 'building', 'queued']));
    const total = body.orders.flatMap((o) => o.domains).reduce((s, d) => s + d.mailbox_count, 0);
    expect(total).toBe(body.mailbox_count);
    expect(body.orders[0]?.subscription_id).toMatch(/^sub_/);
    expect(body.has_more).toBe(false);
  });

  it('billing shows a past-due invoice and the next charge', async () => {
    const body = (await (await service.api('/v1/portal/billing')).json()) as Lifted<
      BillingAnswer,
      'invoicesConnection',
      { invoices: Wire<BillingAnswer['invoicesConnection']['nodes']> }
    >;
    expect(body.past_due_invoices).toHaveLength(1);
    expect(body.past_due_amount).toBe(1750);
    expect(body.next_charge?.amount).toBeGreaterThan(0);
    expect(body.invoices.length).toBe(5);
    expect(body.has_more).toBe(false);
  });

  it('analytics carry null, never 0, for a domain not yet watched', async () => {
    const body = (await (await service.api('/v1/portal/analytics?period=7d')).json()) as Wire<AnalyticsQuery['analytics']>;
    const unwatched = body.domains.filter((d) => !d.watched);
    expect(unwatched.length).toBeGreaterThan(0);
    for (const d of unwatched) expect([d.sent, d.bounce_rate, d.inbox_rate]).toEqual([null, null, null]);
    const watched = body.domains.find((d) => d.watched);
    expect(watched?.sent).toBeGreaterThan(0);
  });

  it('an unknown period is a 422 (a field not in the expected shape, SPEC 7) naming the accepted values', async () => {
    const response = await service.api('/v1/portal/analytics?period=9d');
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toMatch(/7d/);
  });

  it('the catalogue has one orderable plan and others that say why not', async () => {
    const body = await (await service.api('/v1/catalogue')).json();
    expect(body.plans.filter((p: any) => p.orderable)).toHaveLength(1);
    const closed = body.plans.filter((p: any) => !p.orderable);
    expect(closed.length).toBeGreaterThanOrEqual(2);
    for (const p of closed) expect(p.why_not).toMatch(/\w \w/);
  });

  it('workspaces count their domains and the unfiled ones', async () => {
    const body = await (await service.api('/v1/portal/workspaces')).json();
    expect(body.workspaces[0].domain_count).toBe(2);
    expect(body.unfiled_domain_count).toBe(3);
  });

  it('requests list the service replies and referrals their earnings', async () => {
    const requests = await (await service.api('/v1/portal/requests')).json();
    expect(requests.requests.some((r: any) => r.replies.length > 0)).toBe(true);
    const referrals = await (await service.api('/v1/portal/referrals')).json();
    expect(referrals.earned_total).toBe(3700);
    expect(referrals.code).toMatch(/^DEMO-/);
  });
});

describe('accounts are kept apart', () => {
  it("a key of account B never sees account A's domains", async () => {
    const other = await service.seedAccount();
    const mine = await (await service.api('/v1/portal/dashboard')).json();
    const theirs = await (await service.api('/v1/portal/dashboard', { key: other.key })).json();
    const names = (d: any) => new Set(d.orders.flatMap((o: any) => o.domains.map((x: any) => x.domain)));
    const overlap = [...names(mine)].filter((n) => names(theirs).has(n));
    expect(overlap).toEqual([]);
    expect(theirs.account_id).toBe(other.accountId);
  });
});
