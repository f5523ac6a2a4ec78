import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A plan of the operator's list, as a new account gets it (plans are per account, at its own price). */
export interface StandardPlan {
  readonly sku: string;
  readonly product: string;
  readonly description: string;
  readonly unitAmount: number;
  readonly currency: string;
  readonly interval: 'month' | 'year';
  readonly mailboxesPerUnit: number;
  readonly orderable: boolean;
  /** Why it cannot be ordered through the API, and what to do instead; null when it can. */
  readonly whyNot: string | null;
}

/**
 * The plans the operator offers. A new account (sign-up, `admin create-account`, the demo seed) is
 * put on the ones DEFAULT_PLAN_SKUS names; the operator changes one account's price afterwards with
 * `admin set-plan-price`.
 */
export const STANDARD_PLANS: readonly StandardPlan[] = [
  {
    sku: 'google-inbox-unwarmed',
    product: 'Google Workspace inboxes, unwarmed',
    description: 'One Google Workspace mailbox on your own domain, built unwarmed, billed monthly.',
    unitAmount: 350,
    currency: 'usd',
    interval: 'month',
    mailboxesPerUnit: 1,
    orderable: true,
    whyNot: null,
  },
  {
    sku: 'google-inbox-warmed',
    product: 'Google Workspace inboxes, pre-warmed',
    description: 'Mailboxes warmed for 21 days before hand-over.',
    unitAmount: 600,
    currency: 'usd',
    interval: 'month',
    mailboxesPerUnit: 1,
    orderable: false,
    whyNot:
      'Pre-warmed inboxes need a warm-up slot booked by our team: ask for them with "Ask for a plan" on the portal\'s New order page, saying how many you want.',
  },
  {
    sku: 'microsoft-inbox',
    product: 'Microsoft 365 inboxes',
    description: 'Microsoft 365 mailboxes on your own domain.',
    unitAmount: 450,
    currency: 'usd',
    interval: 'month',
    mailboxesPerUnit: 1,
    orderable: false,
    whyNot:
      'Microsoft 365 inboxes are set up by our team, not ordered online yet: ask for them with "Ask for a plan" on the portal\'s New order page, saying how many you want.',
  },
];

/** One entry of DEFAULT_PLAN_SKUS: a sku of STANDARD_PLANS and, with Stripe, the Price it charges. */
export interface DefaultPlan {
  readonly sku: string;
  readonly processorPriceId: string | null;
}

export const DEFAULT_PLAN_SKUS_DEFAULT = 'google-inbox-unwarmed';

/**
 * DEFAULT_PLAN_SKUS: the plans a new account starts on, comma-separated skus of STANDARD_PLANS, each
 * optionally followed by `:price_...` (the Stripe Price it is charged at; the sandbox needs none).
 * Unset: `google-inbox-unwarmed`. `none`: new accounts start with an empty catalogue. An unknown
 * sku stops the start with a sentence naming the variable.
 */
export function defaultPlansFromEnv(env: NodeJS.ProcessEnv): readonly DefaultPlan[] {
  const raw = (env.DEFAULT_PLAN_SKUS ?? '').trim() || DEFAULT_PLAN_SKUS_DEFAULT;
  if (raw.toLowerCase() === 'none') return [];
  const plans: DefaultPlan[] = [];
  for (const entry of raw.split(',')) {
    const [sku = '', price = ''] = entry.trim().split(':');
    if (!STANDARD_PLANS.some((p) => p.sku === sku))
      throw new Error(
        `DEFAULT_PLAN_SKUS names "${sku}", which is not a plan; use a comma-separated list of ${STANDARD_PLANS.map((p) => p.sku).join(', ')} (or "none").`,
      );
    if (price !== '' && !/^price_[A-Za-z0-9_]+$/.test(price))
      throw new Error(`DEFAULT_PLAN_SKUS gives "${price}" as the Stripe Price of ${sku}; a Price id looks like price_1AbC... (or leave it out).`);
    if (!plans.some((p) => p.sku === sku)) plans.push({ sku, processorPriceId: price || null });
  }
  return plans;
}

/** Puts a new account on the default plans (inside the transaction that makes the account). */
export async function giveDefaultPlans(db: Db, accountId: number, plans: readonly DefaultPlan[]): Promise<void> {
  const rows = plans.flatMap((chosen) => {
    const plan = STANDARD_PLANS.find((p) => p.sku === chosen.sku);
    if (!plan) return [];
    return [
      {
        account_id: accountId,
        sku: plan.sku,
        product: plan.product,
        description: plan.description,
        unit_amount: plan.unitAmount,
        currency: plan.currency,
        interval: plan.interval,
        mailboxes_per_unit: plan.mailboxesPerUnit,
        orderable: plan.orderable,
        why_not: plan.whyNot,
        processor_price_id: chosen.processorPriceId,
      },
    ];
  });
  if (rows.length > 0) await db.insertInto('plans').values(rows).execute();
}
