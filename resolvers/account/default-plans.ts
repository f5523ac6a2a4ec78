import { insertPlans } from '../../db/plans.js';
import type { DefaultPlan } from '../../config/settings.js';
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

/**
 * DEFAULT_PLAN_SKUS (read by config/): every sku must be one of STANDARD_PLANS, or the start stops
 * with a sentence naming the variable (server/start-service.ts and the admin command line call this).
 */
export function checkDefaultPlans(plans: readonly DefaultPlan[]): void {
  const unknown = plans.find((chosen) => !STANDARD_PLANS.some((p) => p.sku === chosen.sku));
  if (unknown)
    throw new Error(
      `DEFAULT_PLAN_SKUS names "${unknown.sku}", which is not a plan; use a comma-separated list of ${STANDARD_PLANS.map((p) => p.sku).join(', ')} (or "none").`,
    );
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
  if (rows.length > 0) await insertPlans(db, rows);
}
