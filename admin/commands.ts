import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { seedDemo } from './seed-demo.js';
import { createApiKey, revokeApiKey } from '../resolvers/auth/api-keys.js';
import type { AdminSettings } from './run-admin-command.js';
import { isScope, SCOPES } from '../resolvers/auth/scopes.js';
import { findAccountLimits, setAccountLimits, type AccountLimits } from '../resolvers/limits/account-limits.js';
import { RATE_LIMIT_CLASSES } from '../resolvers/limits/rate-limits.js';
import { readQueueState } from '../jobs/read-queue-state.js';
import { setBuildState } from '../jobs/set-build-state.js';
import { BUILD_STATES, isBuildState } from '../resolvers/domains/setup/setup-record.js';
import { createUser, isRole, normalizeEmail } from '../resolvers/people/users.js';
import { generatePassword } from '../resolvers/people/passwords.js';
import { DomainError } from '../resolvers/domain-error.js';
import { giveDefaultPlans, STANDARD_PLANS } from '../resolvers/account/default-plans.js';
import { giveReferralCode } from '../resolvers/referrals/referral-code.js';
import { hasAccount, insertAccount } from '../db/accounts.js';
import { findApiKey, listApiKeys } from '../db/api-keys.js';
import { findPlanBySku, setPlanPrice, setPlanUnitAmount } from '../db/plans.js';
import { findPromotionCode, insertPromotionCodes, listPromotionCodes } from '../db/promotion-codes.js';
import type { PromotionCodeTable } from '../db/schema.js';
import type { Selectable } from 'kysely';
import { parseSecretsKey } from '../config/environment.js';
import { rotateSecrets, RotationRefusal } from '../resolvers/secrets/rotate-secrets.js';

type Fail = (message: string) => never;
type Values = Record<string, string | undefined>;

interface AdminCommand {
  readonly usage: string;
  readonly options: Record<string, { type: 'string' | 'boolean' }>;
  run(db: Kysely<Database>, values: Values, fail: Fail, settings: AdminSettings): Promise<Record<string, unknown>>;
}

function wholeNumber(value: string | undefined, name: string, fail: Fail): number {
  if (!value || !/^\d{1,9}$/.test(value)) return fail(`--${name} must be a whole number.`);
  return Number(value);
}

/** "default" returns a limit to the service-wide default; otherwise a whole number of at least 1. */
function limitValue(value: string | undefined, name: string, fail: Fail): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) return fail(`--${name} must be a whole number of at least 1, or "default".`);
  return Number(value);
}

/** The limits as the operator reads them: each with its value and whether it is the account's own. */
function describeLimits(accountId: number, limits: AccountLimits): Record<string, unknown> {
  const entry = (own: number | null, fallback: number) => ({ value: own ?? fallback, source: own === null ? 'default' : 'account' });
  return {
    account_id: accountId,
    read_per_minute: entry(limits.readPerMinute, RATE_LIMIT_CLASSES.read.points),
    change_per_minute: entry(limits.changePerMinute, RATE_LIMIT_CLASSES.change.points),
    orders_per_hour: entry(limits.ordersPerHour, RATE_LIMIT_CLASSES.order.points),
  };
}

async function requireLimits(db: Kysely<Database>, accountId: number, fail: Fail): Promise<AccountLimits> {
  return (await findAccountLimits(db, accountId)) ?? fail(`There is no account ${accountId}.`);
}

/** A promotion code as the operator reads it. */
function describePromotionCode(row: Selectable<PromotionCodeTable>): Record<string, unknown> {
  return {
    account_id: row.account_id,
    code: row.code,
    plan_id: row.plan_id,
    percent_off: row.percent_off,
    amount_off: row.amount_off,
    currency: row.currency,
    duration: row.duration,
    duration_in_months: row.duration_in_months,
    expires_at: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
    max_redemptions: row.max_redemptions,
    times_redeemed: row.times_redeemed,
  };
}

/** The operator's commands, one entry each; admin/cli.ts parses and prints. */
export const adminCommands: Record<string, AdminCommand> = {
  'create-account': {
    usage: 'create-account --name NAME',
    options: { name: { type: 'string' } },
    async run(db, values, fail, { defaultPlans: plans }) {
      const name = values.name?.trim();
      if (!name) return fail('--name is required.');
      const id = await db.transaction().execute(async (trx) => {
        const accountId = await insertAccount(trx, name);
        await giveDefaultPlans(trx, accountId, plans);
        await giveReferralCode(trx, accountId);
        return accountId;
      });
      return { account_id: id, plans: plans.map((p) => p.sku) };
    },
  },
  'create-key': {
    usage: 'create-key --account ID --scopes read,write,orders:place',
    options: { account: { type: 'string' }, scopes: { type: 'string' } },
    async run(db, values, fail, { keyMode }) {
      const accountId = wholeNumber(values.account, 'account', fail);
      const scopes = (values.scopes ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (scopes.length === 0) return fail(`--scopes is required: a comma-separated list of ${SCOPES.join(', ')}.`);
      const unknown = scopes.filter((s) => !isScope(s));
      if (unknown.length) return fail(`Unknown scope ${unknown.join(', ')}; use ${SCOPES.join(', ')}.`);
      if (!(await hasAccount(db, accountId))) return fail(`There is no account ${accountId}.`);
      const unique = [...new Set(scopes)].filter(isScope);
      const { key, keyId } = await createApiKey(db, accountId, unique, { mode: keyMode });
      return { key, key_id: keyId, scopes: unique };
    },
  },
  'create-user': {
    usage: 'create-user --account ID --email EMAIL --role owner|member',
    options: { account: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    async run(db, values, fail) {
      const accountId = wholeNumber(values.account, 'account', fail);
      const role = values.role ?? 'member';
      if (!isRole(role)) return fail('--role must be owner or member.');
      if (!(await hasAccount(db, accountId))) return fail(`There is no account ${accountId}.`);
      // A generated password, shown this once: the person signs in with it and can reset it later.
      const password = generatePassword();
      try {
        const userId = await createUser(db, accountId, normalizeEmail(values.email), password, role);
        return { user_id: userId, password };
      } catch (error) {
        if (error instanceof DomainError) return fail(error.detail.replace('Send "email"', 'Give --email'));
        throw error;
      }
    },
  },
  'rotate-secrets': {
    usage: 'rotate-secrets --from OLD_KEY   (SECRETS_KEY set to the new key, the service stopped)',
    options: { from: { type: 'string' } },
    async run(db, values, fail, { secretsKey }) {
      if (secretsKey === undefined)
        return fail(
          'rotate-secrets needs the service stopped: a running service keeps its SECRETS_KEY in memory. Stop it, run this again with SECRETS_KEY set to the new key, then start it with that key.',
        );
      const from = parseSecretsKey(values.from ?? '');
      if (from === null) return fail('--from is the key the secrets are sealed with now: 32 bytes as base64 (44 characters) or hex (64), as SECRETS_KEY was.');
      if (from.equals(secretsKey))
        return fail('--from is the SECRETS_KEY this command runs with; set SECRETS_KEY to the new key and give the old one as --from.');
      try {
        const { resealed, alreadyCurrent } = await rotateSecrets(db, from, secretsKey);
        return { rotated: true, resealed, already_current: alreadyCurrent };
      } catch (error) {
        if (error instanceof RotationRefusal) return fail(error.message);
        throw error;
      }
    },
  },
  'revoke-key': {
    usage: 'revoke-key --key-id ID',
    options: { 'key-id': { type: 'string' } },
    async run(db, values, fail) {
      const keyId = wholeNumber(values['key-id'], 'key-id', fail);
      const key = await findApiKey(db, keyId);
      if (!key) return fail(`There is no key ${keyId}.`);
      await revokeApiKey(db, keyId);
      return { revoked: true };
    },
  },
  'add-plan': {
    usage: 'add-plan --account ID --sku SKU [--unit-amount N] [--processor-price-id PRICE]',
    options: { account: { type: 'string' }, sku: { type: 'string' }, 'unit-amount': { type: 'string' }, 'processor-price-id': { type: 'string' } },
    async run(db, values, fail) {
      const accountId = wholeNumber(values.account, 'account', fail);
      const sku = values.sku?.trim() ?? '';
      const plan = STANDARD_PLANS.find((p) => p.sku === sku);
      if (!plan) return fail(`--sku must be one of ${STANDARD_PLANS.map((p) => p.sku).join(', ')}.`);
      const unitAmount = values['unit-amount'] === undefined ? plan.unitAmount : wholeNumber(values['unit-amount'], 'unit-amount', fail);
      if (!(await hasAccount(db, accountId))) return fail(`There is no account ${accountId}.`);
      const taken = await findPlanBySku(db, accountId, sku);
      if (taken) return fail(`Account ${accountId} is already on "${sku}"; change its price with set-plan-price.`);
      await giveDefaultPlans(db, accountId, [{ sku, processorPriceId: values['processor-price-id']?.trim() || null }]);
      if (unitAmount !== plan.unitAmount) await setPlanUnitAmount(db, accountId, sku, unitAmount);
      return { account_id: accountId, sku, unit_amount: unitAmount, orderable: plan.orderable };
    },
  },
  'set-plan-price': {
    usage: 'set-plan-price --account ID --sku SKU --unit-amount N [--processor-price-id PRICE]',
    options: { account: { type: 'string' }, sku: { type: 'string' }, 'unit-amount': { type: 'string' }, 'processor-price-id': { type: 'string' } },
    async run(db, values, fail) {
      const accountId = wholeNumber(values.account, 'account', fail);
      const sku = values.sku?.trim();
      if (!sku) return fail("--sku is required: a sku of the account's catalogue.");
      const unitAmount = wholeNumber(values['unit-amount'], 'unit-amount', fail);
      const plan = await findPlanBySku(db, accountId, sku);
      if (!plan) return fail(`Account ${accountId} has no plan with sku "${sku}".`);
      // With Stripe the charge follows the Stripe Price: a new amount needs a new Price id alongside.
      const priceRef = values['processor-price-id']?.trim() || plan.processor_price_id;
      await setPlanPrice(db, plan.id, unitAmount, priceRef, new Date());
      return {
        account_id: accountId,
        sku,
        unit_amount: unitAmount,
        previous_unit_amount: plan.unit_amount,
        currency: plan.currency,
        processor_price_id: priceRef,
      };
    },
  },
  'set-limits': {
    usage: 'set-limits --account ID [--read-per-minute N] [--change-per-minute N] [--orders-per-hour N] (N or "default")',
    options: {
      account: { type: 'string' },
      'read-per-minute': { type: 'string' },
      'change-per-minute': { type: 'string' },
      'orders-per-hour': { type: 'string' },
    },
    async run(db, values, fail) {
      const accountId = wholeNumber(values.account, 'account', fail);
      const change = {
        readPerMinute: limitValue(values['read-per-minute'], 'read-per-minute', fail),
        changePerMinute: limitValue(values['change-per-minute'], 'change-per-minute', fail),
        ordersPerHour: limitValue(values['orders-per-hour'], 'orders-per-hour', fail),
      };
      if (Object.values(change).every((v) => v === undefined)) return fail('Give at least one of --read-per-minute, --change-per-minute, --orders-per-hour.');
      await requireLimits(db, accountId, fail);
      await setAccountLimits(db, accountId, change);
      return describeLimits(accountId, await requireLimits(db, accountId, fail));
    },
  },
  'get-limits': {
    usage: 'get-limits --account ID',
    options: { account: { type: 'string' } },
    async run(db, values, fail) {
      const accountId = wholeNumber(values.account, 'account', fail);
      return describeLimits(accountId, await requireLimits(db, accountId, fail));
    },
  },
  'list-keys': {
    usage: 'list-keys --account ID',
    options: { account: { type: 'string' } },
    async run(db, values, fail) {
      const accountId = wholeNumber(values.account, 'account', fail);
      await requireLimits(db, accountId, fail);
      const keys = await listApiKeys(db, accountId);
      const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
      return {
        account_id: accountId,
        keys: keys.map((k) => ({
          key_id: k.id,
          prefix: k.prefix,
          scopes: k.scopes.split(','),
          created_at: iso(k.created_at),
          last_used_at: iso(k.last_used_at),
          revoked_at: iso(k.revoked_at),
        })),
      };
    },
  },
  'create-promotion-code': {
    usage:
      'create-promotion-code --account ID --code CODE (--percent-off N | --amount-off CENTS [--currency usd]) [--plan SKU] [--duration once|repeating|forever] [--months N] [--max-redemptions N] [--expires-at YYYY-MM-DD]',
    options: {
      account: { type: 'string' },
      code: { type: 'string' },
      'percent-off': { type: 'string' },
      'amount-off': { type: 'string' },
      currency: { type: 'string' },
      plan: { type: 'string' },
      duration: { type: 'string' },
      months: { type: 'string' },
      'max-redemptions': { type: 'string' },
      'expires-at': { type: 'string' },
    },
    async run(db, values, fail) {
      const accountId = wholeNumber(values.account, 'account', fail);
      await requireLimits(db, accountId, fail);
      const code = values.code?.trim().toUpperCase() ?? '';
      if (!/^[A-Z0-9_-]{3,40}$/.test(code)) return fail('--code must be 3 to 40 letters, digits, "-" or "_" (it is stored upper-case).');
      if (await findPromotionCode(db, accountId, code))
        return fail(`Account ${accountId} already has the code "${code}"; list them with list-promotion-codes.`);
      const hasPercent = values['percent-off'] !== undefined;
      const hasAmount = values['amount-off'] !== undefined;
      if (hasPercent === hasAmount) return fail('Give exactly one of --percent-off N (1-100) and --amount-off CENTS.');
      const percentOff = hasPercent ? wholeNumber(values['percent-off'], 'percent-off', fail) : null;
      if (percentOff !== null && (percentOff < 1 || percentOff > 100)) return fail('--percent-off must be between 1 and 100.');
      const amountOff = hasAmount ? wholeNumber(values['amount-off'], 'amount-off', fail) : null;
      if (amountOff === 0) return fail('--amount-off must be at least 1 (cents).');
      const currency = hasAmount ? (values.currency?.trim().toLowerCase() ?? 'usd') : null;
      if (currency !== null && !/^[a-z]{3}$/.test(currency)) return fail('--currency must be a three-letter ISO code such as usd.');
      const duration = values.duration?.trim() ?? 'once';
      if (!['once', 'repeating', 'forever'].includes(duration)) return fail('--duration must be once, repeating or forever.');
      const months = values.months === undefined ? null : wholeNumber(values.months, 'months', fail);
      if ((duration === 'repeating') !== (months !== null)) return fail('--months N goes with --duration repeating, and only with it.');
      let planId: number | null = null;
      if (values.plan !== undefined) {
        const plan = await findPlanBySku(db, accountId, values.plan.trim());
        if (!plan) return fail(`Account ${accountId} has no plan "${values.plan}"; give one of its plans' SKUs or leave --plan out for any plan.`);
        planId = plan.id;
      }
      const maxRedemptions = values['max-redemptions'] === undefined ? null : wholeNumber(values['max-redemptions'], 'max-redemptions', fail);
      let expiresAt: Date | null = null;
      if (values['expires-at'] !== undefined) {
        expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(values['expires-at']) ? new Date(`${values['expires-at']}T23:59:59Z`) : null;
        if (!expiresAt || Number.isNaN(expiresAt.getTime()))
          return fail('--expires-at must be a date such as 2027-01-31 (the code works until the end of that day, UTC).');
      }
      await insertPromotionCodes(db, [
        {
          account_id: accountId,
          code,
          plan_id: planId,
          percent_off: percentOff,
          amount_off: amountOff,
          currency,
          duration,
          duration_in_months: months,
          expires_at: expiresAt,
          max_redemptions: maxRedemptions,
          processor_ref: null,
        },
      ]);
      const created = await findPromotionCode(db, accountId, code);
      return describePromotionCode(created!);
    },
  },
  'list-promotion-codes': {
    usage: 'list-promotion-codes --account ID',
    options: { account: { type: 'string' } },
    async run(db, values, fail) {
      const accountId = wholeNumber(values.account, 'account', fail);
      await requireLimits(db, accountId, fail);
      return { account_id: accountId, promotion_codes: (await listPromotionCodes(db, accountId)).map(describePromotionCode) };
    },
  },
  jobs: {
    usage: 'jobs',
    options: {},
    run: (db, _values, _fail, { jobLeaseMs }) => readQueueState(db, jobLeaseMs),
  },
  'set-build-state': {
    usage: 'set-build-state --domain DOMAIN --state queued|building|waiting_for_dns|live|needs_attention [--reason TEXT]',
    options: { domain: { type: 'string' }, state: { type: 'string' }, reason: { type: 'string' } },
    async run(db, values, fail) {
      const domain = values.domain?.trim();
      if (!domain) return fail('--domain is required: a domain of an order.');
      const state = values.state?.trim() ?? '';
      if (!isBuildState(state)) return fail(`--state must be one of ${BUILD_STATES.join(', ')}.`);
      const reason = values.reason?.trim() || null;
      if (state === 'needs_attention' && !reason) return fail('--reason is required with needs_attention: a sentence telling the customer what to do.');
      const outcome = await setBuildState(db, domain, state, reason);
      return 'error' in outcome ? fail(outcome.error) : outcome;
    },
  },
  'seed-demo': {
    // --shared-demo-token: the account proves the demo domains with the public demo token the dev DNS
    // zone publishes (tests that seed several accounts against one zone); without it only the first
    // demo account has that token.
    usage: 'seed-demo [--shared-demo-token]',
    options: { 'shared-demo-token': { type: 'boolean' } },
    async run(db, values, _fail, { keyMode }) {
      const demo = await seedDemo(db, keyMode, new Date(), { sharedDemoToken: values['shared-demo-token'] === 'true' });
      return { account_id: demo.accountId, key: demo.key, key_id: demo.keyId };
    },
  },
};
