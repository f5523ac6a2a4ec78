import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { createApiKey, type KeyMode } from '../resolvers/auth/api-keys.js';
import { SCOPES } from '../resolvers/auth/scopes.js';
import { STANDARD_PLANS } from '../resolvers/account/default-plans.js';
import { DEMO_VERIFICATION_TOKEN } from '../resolvers/orders/verification-record.js';
import type { BuildState, OrderStatus } from '../db/status-values.js';
import { insertAccount } from '../db/accounts.js';
import { insertPlans } from '../db/plans.js';
import { insertPromotionCodes } from '../db/promotion-codes.js';
import { findDomainVerificationTokenHolder, insertDomainVerificationTokenOnce } from '../db/domain-verification-tokens.js';
import { insertWorkspace } from '../db/workspaces.js';
import { insertOrder } from '../db/orders.js';
import { insertDomains } from '../db/domains.js';
import { insertMailboxes } from '../db/mailboxes.js';
import { insertDomainAnalytics } from '../db/domain-analytics.js';
import { insertInvoices } from '../db/invoices.js';
import { insertChangeRequest, insertRequestReply } from '../db/change-requests.js';
import { insertReferralEarnings } from '../db/referrals.js';
import { giveReferralCode } from '../resolvers/referrals/referral-code.js';

export interface DemoAccount {
  readonly accountId: number;
  readonly key: string;
  readonly keyId: number;
}

const DAY = 86_400_000;

/**
 * A demo account a newcomer can read at once: a catalogue with one plan orderable through the API and
 * two that are not (each saying why), three orders whose domains are in different build states, a
 * folder holding some domains, invoices including a past-due one, analytics where one domain is not
 * yet watched, a change request with a reply, a referral code with earnings, and promotion codes of
 * every kind (one-off, three months, forever, first invoice free, expired, used up, other plan). No card is on file:
 * saving one through the setup link is the first thing to do before placing an order. Every run
 * makes a new account (domain names carry a random tag, since a domain belongs to one order only).
 * The first demo account's domain verification token is fixed (DEMO_VERIFICATION_TOKEN), and the dev
 * DNS zone publishes it for the orderable demo domains, so they pass the ownership check offline.
 * The token is public (it is in this repository), so every later demo account gets a random one:
 * otherwise anyone could prove a domain as theirs for every demo account at once. Tests whose
 * accounts share one DNS zone ask for the shared token (`sharedDemoToken`).
 */
export async function seedDemo(
  db: Kysely<Database>,
  keyMode: KeyMode,
  now = new Date(),
  options: { readonly sharedDemoToken?: boolean } = {},
): Promise<DemoAccount> {
  const tag = randomBytes(3).toString('hex');
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
  const accountId = await db.transaction().execute(async (trx) => {
    const id = await insertAccount(trx, 'Demo Agency');
    const plans = await seedPlans(trx, id);
    await seedPromotionCodes(trx, id, plans, at);
    await seedVerificationToken(trx, id, options.sharedDemoToken);
    const workspaceId = await insertWorkspace(trx, id, 'Client: Acme outbound');
    const orderIds = await seedOrders(trx, { id, planId: plans.planId, workspaceId, tag, at });
    await seedInvoices(trx, id, orderIds, tag, at);
    await seedChangeRequests(trx, id, orderIds, tag, at);
    await seedReferrals(trx, id, tag, at);
    return id;
  });
  const { key, keyId } = await createApiKey(db, accountId, SCOPES, { mode: keyMode });
  return { accountId, key, keyId };
}

/** A date this many days before the seed's `now`. */
type DaysAgo = (daysAgo: number) => Date;

interface DemoPlans {
  readonly planId: number;
  readonly warmedId: number;
}

// The operator's standard plans (the demo shows one orderable and two that say what to do instead).
async function seedPlans(trx: Transaction<Database>, id: number): Promise<DemoPlans> {
  const [orderable, warmed] = await insertPlans(
    trx,
    STANDARD_PLANS.map((plan) => ({
      account_id: id,
      sku: plan.sku,
      product: plan.product,
      description: plan.description,
      unit_amount: plan.unitAmount,
      currency: plan.currency,
      interval: plan.interval,
      mailboxes_per_unit: plan.mailboxesPerUnit,
      orderable: plan.orderable,
      why_not: plan.whyNot,
      processor_price_id: plan.orderable ? 'price_demo_google_unwarmed' : null,
    })),
  );
  return { planId: orderable!.id, warmedId: warmed!.id };
}

// One promotion code of each kind, so every rule of issue 5 can be tried on the demo account.
async function seedPromotionCodes(trx: Transaction<Database>, id: number, plans: DemoPlans, at: DaysAgo): Promise<void> {
  const { planId } = plans;
  await insertPromotionCodes(trx, [
    {
      account_id: id,
      code: 'WELCOME20',
      plan_id: null,
      percent_off: 20,
      amount_off: null,
      currency: null,
      duration: 'once',
      duration_in_months: null,
      expires_at: null,
      max_redemptions: null,
      processor_ref: null,
    },
    {
      account_id: id,
      code: 'SPRING3',
      plan_id: null,
      percent_off: 25,
      amount_off: null,
      currency: null,
      duration: 'repeating',
      duration_in_months: 3,
      expires_at: null,
      max_redemptions: null,
      processor_ref: null,
    },
    {
      account_id: id,
      code: 'LOYAL10',
      plan_id: null,
      percent_off: 10,
      amount_off: null,
      currency: null,
      duration: 'forever',
      duration_in_months: null,
      expires_at: null,
      max_redemptions: null,
      processor_ref: null,
    },
    {
      account_id: id,
      code: 'FIRSTFREE',
      plan_id: planId,
      percent_off: 100,
      amount_off: null,
      currency: null,
      duration: 'once',
      duration_in_months: null,
      expires_at: null,
      max_redemptions: null,
      processor_ref: null,
    },
    {
      account_id: id,
      code: 'SUMMER24',
      plan_id: null,
      percent_off: 15,
      amount_off: null,
      currency: null,
      duration: 'once',
      duration_in_months: null,
      expires_at: at(30),
      max_redemptions: null,
      processor_ref: null,
    },
    {
      account_id: id,
      code: 'LAUNCH50',
      plan_id: null,
      percent_off: null,
      amount_off: 500,
      currency: 'usd',
      duration: 'once',
      duration_in_months: null,
      expires_at: null,
      max_redemptions: 1,
      times_redeemed: 1,
      processor_ref: null,
    },
    {
      account_id: id,
      code: 'WARMUP15',
      plan_id: plans.warmedId,
      percent_off: 15,
      amount_off: null,
      currency: null,
      duration: 'once',
      duration_in_months: null,
      expires_at: null,
      max_redemptions: null,
      processor_ref: null,
    },
  ]);
}

/** The fixed demo token for the first demo account (or when asked to share it), a random one otherwise. */
async function seedVerificationToken(trx: Transaction<Database>, id: number, sharedDemoToken: boolean | undefined): Promise<void> {
  const fixedTaken = await findDomainVerificationTokenHolder(trx, DEMO_VERIFICATION_TOKEN);
  const token = fixedTaken && sharedDemoToken !== true ? randomBytes(16).toString('hex') : DEMO_VERIFICATION_TOKEN;
  await insertDomainVerificationTokenOnce(trx, id, token);
}

interface DemoOrderSetting {
  readonly id: number;
  readonly planId: number;
  readonly workspaceId: number;
  readonly tag: string;
  readonly at: DaysAgo;
}

interface DemoDomainSpec {
  name: string;
  state: BuildState;
  mailboxes: number;
  workspace: boolean;
  watched: number | null;
  forward: string | null;
}

/** Three orders whose domains are in different build states; answers the orders' ids in that order. */
async function seedOrders(trx: Transaction<Database>, setting: DemoOrderSetting): Promise<number[]> {
  const { id, planId, workspaceId, tag, at } = setting;
  const orderSpecs: readonly {
    readonly daysAgo: number;
    readonly status: OrderStatus;
    readonly domains: readonly DemoDomainSpec[];
  }[] = [
    {
      daysAgo: 75,
      status: 'active',
      domains: [
        { name: `acme-mail-${tag}.com`, state: 'live', mailboxes: 3, workspace: true, watched: 60, forward: `acme-${tag}.com` },
        { name: `acme-reach-${tag}.com`, state: 'live', mailboxes: 2, workspace: true, watched: 60, forward: `acme-${tag}.com` },
      ],
    },
    {
      daysAgo: 20,
      status: 'active',
      domains: [
        { name: `getbrightpath-${tag}.com`, state: 'live', mailboxes: 3, workspace: false, watched: 10, forward: null },
        { name: `brightpath-hq-${tag}.com`, state: 'building', mailboxes: 2, workspace: false, watched: null, forward: null },
      ],
    },
    {
      daysAgo: 1,
      status: 'active',
      domains: [{ name: `tryorbitly-${tag}.com`, state: 'queued', mailboxes: 1, workspace: false, watched: null, forward: `orbitly-${tag}.io` }],
    },
  ];
  const orderIds: number[] = [];
  for (const [index, spec] of orderSpecs.entries()) {
    const quantity = spec.domains.reduce((s, d) => s + d.mailboxes, 0);
    const order = await insertOrder(trx, {
      account_id: id,
      plan_id: planId,
      reference: `ORD-DEMO-${tag.toUpperCase()}-${index + 1}`,
      subscription_id: `sub_demo_${tag}_${index + 1}`,
      status: spec.status,
      quantity,
      unit_amount: 350,
      currency: 'usd',
      interval: 'month',
      sequencer: index === 0 ? 'instantly' : null,
      created_at: at(spec.daysAgo),
    });
    orderIds.push(order.id);
    for (const d of spec.domains) await seedDomain(trx, { id, orderId: order.id, workspaceId, daysAgo: spec.daysAgo, at }, d);
  }
  return orderIds;
}

/** One domain of an order: its row, its mailboxes, and for a watched domain up to 30 days of analytics. */
async function seedDomain(
  trx: Transaction<Database>,
  setting: { readonly id: number; readonly orderId: number; readonly workspaceId: number; readonly daysAgo: number; readonly at: DaysAgo },
  d: DemoDomainSpec,
): Promise<void> {
  const { id, workspaceId, at } = setting;
  const [domain] = await insertDomains(trx, [
    {
      account_id: id,
      order_id: setting.orderId,
      workspace_id: d.workspace ? workspaceId : null,
      domain: d.name,
      build_state: d.state,
      forward_to: d.forward,
      watched_since: d.watched === null ? null : at(d.watched),
      created_at: at(setting.daysAgo),
    },
  ]);
  const domainId = domain!.id;
  const people = [
    ['Alex', 'Morgan', 'alex'],
    ['Sam', 'Rivera', 'sam'],
    ['Jordan', 'Lee', 'jordan'],
  ] as const;
  await insertMailboxes(
    trx,
    people.slice(0, d.mailboxes).map(([first, last, local]) => ({
      domain_id: domainId,
      first_name: first,
      last_name: last,
      local_part: local,
      // A live domain's mailboxes exist at the provider; their passwords are made at the first reveal (docs/mailboxes.md).
      status: d.state === 'live' ? 'active' : 'pending',
    })),
  );
  if (d.watched !== null) {
    const days = Math.min(d.watched, 30);
    await insertDomainAnalytics(
      trx,
      Array.from({ length: days }, (_, i) => {
        const sent = 40 + ((i * 7 + d.mailboxes * 3) % 25);
        const bounced = i % 9 === 0 ? 2 : 0;
        return {
          domain_id: domainId,
          day: at(i).toISOString().slice(0, 10),
          sent,
          delivered: sent - bounced,
          bounced,
          replied: (i * 3 + d.mailboxes) % 4,
          inbox_placed: 9 + (i % 2),
          spam_placed: i % 5 === 0 ? 1 : 0,
        };
      }),
    );
  }
}

/** Invoices including a past-due one. */
async function seedInvoices(trx: Transaction<Database>, id: number, orderIds: readonly number[], tag: string, at: DaysAgo): Promise<void> {
  await insertInvoices(trx, [
    {
      account_id: id,
      order_id: orderIds[0]!,
      number: `INV-${tag.toUpperCase()}-0001`,
      status: 'paid',
      amount_due: 1750,
      amount_paid: 1750,
      currency: 'usd',
      issued_at: at(75),
      due_at: at(75),
      paid_at: at(75),
    },
    {
      account_id: id,
      order_id: orderIds[0]!,
      number: `INV-${tag.toUpperCase()}-0002`,
      status: 'paid',
      amount_due: 1750,
      amount_paid: 1750,
      currency: 'usd',
      issued_at: at(45),
      due_at: at(45),
      paid_at: at(45),
    },
    {
      account_id: id,
      order_id: orderIds[1]!,
      number: `INV-${tag.toUpperCase()}-0003`,
      status: 'paid',
      amount_due: 1750,
      amount_paid: 1750,
      currency: 'usd',
      issued_at: at(20),
      due_at: at(20),
      paid_at: at(20),
    },
    {
      account_id: id,
      order_id: orderIds[0]!,
      number: `INV-${tag.toUpperCase()}-0004`,
      status: 'open',
      amount_due: 1750,
      amount_paid: 0,
      currency: 'usd',
      issued_at: at(15),
      due_at: at(8),
      paid_at: null,
    },
    {
      account_id: id,
      order_id: orderIds[2]!,
      number: `INV-${tag.toUpperCase()}-0005`,
      status: 'paid',
      amount_due: 350,
      amount_paid: 350,
      currency: 'usd',
      issued_at: at(1),
      due_at: at(1),
      paid_at: at(1),
    },
  ]);
}

/** A change request with a reply, and an open one. */
async function seedChangeRequests(trx: Transaction<Database>, id: number, orderIds: readonly number[], tag: string, at: DaysAgo): Promise<void> {
  const request = await insertChangeRequest(trx, {
    account_id: id,
    order_id: orderIds[0]!,
    kind: 'forwarding',
    summary: 'Point both Acme domains at the main site.',
    forward_to: `acme-${tag}.com`,
    status: 'done',
    created_at: at(30),
  });
  await insertRequestReply(trx, { request_id: request.id, author: 'support', body: 'Done: both domains now forward to the main site.', created_at: at(29) });
  await insertChangeRequest(trx, {
    account_id: id,
    order_id: orderIds[1]!,
    kind: 'rename_mailbox',
    summary: 'Rename sam@ to samantha@ on getbrightpath.',
    forward_to: null,
    status: 'open',
    created_at: at(2),
  });
}

/** A referral code with earnings. */
async function seedReferrals(trx: Transaction<Database>, id: number, tag: string, at: DaysAgo): Promise<void> {
  await giveReferralCode(trx, id, { code: `DEMO-${tag.toUpperCase()}`, payoutDestination: 'Bank account ending 6789' });
  await insertReferralEarnings(trx, [
    { account_id: id, referred_account: 'Northwind Outreach', amount: 2500, currency: 'usd', status: 'paid', earned_at: at(40) },
    { account_id: id, referred_account: 'Contoso Growth', amount: 1200, currency: 'usd', status: 'pending', earned_at: at(5) },
  ]);
}
