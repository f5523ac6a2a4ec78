import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { seedDemo } from '../db/seed-demo.js';
import { createApiKey, revokeApiKey } from '../resolvers/auth/api-keys.js';
import { isScope, SCOPES } from '../resolvers/auth/scopes.js';

type Fail = (message: string) => never;
type Values = Record<string, string | undefined>;

interface AdminCommand {
  readonly usage: string;
  readonly options: Record<string, { type: 'string' }>;
  run(db: Kysely<Database>, values: Values, fail: Fail): Promise<Record<string, unknown>>;
}

function wholeNumber(value: string | undefined, name: string, fail: Fail): number {
  if (!value || !/^\d{1,9}$/.test(value)) return fail(`--${name} must be a whole number.`);
  return Number(value);
}

/** The operator's commands, one entry each; admin/cli.ts parses and prints. */
export const adminCommands: Record<string, AdminCommand> = {
  'create-account': {
    usage: 'create-account --name NAME',
    options: { name: { type: 'string' } },
    async run(db, values, fail) {
      const name = values.name?.trim();
      if (!name) return fail('--name is required.');
      const row = await db.insertInto('accounts').values({ name }).returning('id').executeTakeFirstOrThrow();
      return { account_id: row.id };
    },
  },
  'create-key': {
    usage: 'create-key --account ID --scopes read,write,orders:place',
    options: { account: { type: 'string' }, scopes: { type: 'string' } },
    async run(db, values, fail) {
      const accountId = wholeNumber(values.account, 'account', fail);
      const scopes = (values.scopes ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (scopes.length === 0) return fail(`--scopes is required: a comma-separated list of ${SCOPES.join(', ')}.`);
      const unknown = scopes.filter((s) => !isScope(s));
      if (unknown.length) return fail(`Unknown scope ${unknown.join(', ')}; use ${SCOPES.join(', ')}.`);
      const account = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
      if (!account) return fail(`There is no account ${accountId}.`);
      const unique = [...new Set(scopes)].filter(isScope);
      const { key, keyId } = await createApiKey(db, accountId, unique);
      return { key, key_id: keyId, scopes: unique };
    },
  },
  'revoke-key': {
    usage: 'revoke-key --key-id ID',
    options: { 'key-id': { type: 'string' } },
    async run(db, values, fail) {
      const keyId = wholeNumber(values['key-id'], 'key-id', fail);
      const key = await db.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', keyId).executeTakeFirst();
      if (!key) return fail(`There is no key ${keyId}.`);
      await revokeApiKey(db, keyId);
      return { revoked: true };
    },
  },
  'set-plan-price': {
    usage: 'set-plan-price --account ID --sku SKU --unit-amount N [--processor-price-id PRICE]',
    options: { account: { type: 'string' }, sku: { type: 'string' }, 'unit-amount': { type: 'string' }, 'processor-price-id': { type: 'string' } },
    async run(db, values, fail) {
      const accountId = wholeNumber(values.account, 'account', fail);
      const sku = values.sku?.trim();
      if (!sku) return fail('--sku is required: a sku of the account\'s catalogue.');
      const unitAmount = wholeNumber(values['unit-amount'], 'unit-amount', fail);
      const plan = await db.selectFrom('plans').select(['id', 'unit_amount', 'currency', 'processor_price_id'])
        .where('account_id', '=', accountId).where('sku', '=', sku).executeTakeFirst();
      if (!plan) return fail(`Account ${accountId} has no plan with sku "${sku}".`);
      // With Stripe the charge follows the Stripe Price: a new amount needs a new Price id alongside.
      const priceRef = values['processor-price-id']?.trim() || plan.processor_price_id;
      await db.updateTable('plans').set({ unit_amount: unitAmount, processor_price_id: priceRef, price_updated_at: new Date() }).where('id', '=', plan.id).execute();
      return { account_id: accountId, sku, unit_amount: unitAmount, previous_unit_amount: plan.unit_amount, currency: plan.currency, processor_price_id: priceRef };
    },
  },
  'seed-demo': {
    usage: 'seed-demo',
    options: {},
    async run(db) {
      const demo = await seedDemo(db);
      return { account_id: demo.accountId, key: demo.key, key_id: demo.keyId };
    },
  },
};
