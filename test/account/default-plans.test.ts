import { describe, expect, it } from 'vitest';
import { checkDefaultPlans } from '../../resolvers/account/default-plans.js';
import { serviceConfigFromEnv } from '../../config/settings.js';

const defaultPlansFromEnv = (env: NodeJS.ProcessEnv) => serviceConfigFromEnv(env).defaultPlans;

describe('DEFAULT_PLAN_SKUS', () => {
  it('unset, a new account starts on the unwarmed Google plan', () => {
    expect(defaultPlansFromEnv({})).toEqual([{ sku: 'google-inbox-unwarmed', processorPriceId: null }]);
  });

  it('takes several skus, each with an optional Stripe Price, once each', () => {
    expect(defaultPlansFromEnv({ DEFAULT_PLAN_SKUS: 'google-inbox-unwarmed:price_123, microsoft-inbox, microsoft-inbox' })).toEqual([
      { sku: 'google-inbox-unwarmed', processorPriceId: 'price_123' },
      { sku: 'microsoft-inbox', processorPriceId: null },
    ]);
  });

  it('"none" starts new accounts with an empty catalogue', () => {
    expect(defaultPlansFromEnv({ DEFAULT_PLAN_SKUS: 'none' })).toEqual([]);
  });

  it('an unknown sku or a malformed Price stops the start with a sentence naming the variable', () => {
    expect(() => checkDefaultPlans(defaultPlansFromEnv({ DEFAULT_PLAN_SKUS: 'gold-plan' }))).toThrow(
      /DEFAULT_PLAN_SKUS names "gold-plan".*google-inbox-unwarmed/,
    );
    expect(() => serviceConfigFromEnv({ DEFAULT_PLAN_SKUS: 'google-inbox-unwarmed:prod_1' })).toThrow(/DEFAULT_PLAN_SKUS gives "prod_1"/);
  });
});

describe('OPERATOR_EMAIL', () => {
  it('defaults to operator@localhost and refuses anything but one address', () => {
    expect(serviceConfigFromEnv({}).operatorEmail).toBe('operator@localhost');
    expect(serviceConfigFromEnv({ OPERATOR_EMAIL: 'ops@example.com' }).operatorEmail).toBe('ops@example.com');
    expect(() => serviceConfigFromEnv({ OPERATOR_EMAIL: 'a@example.com, b@example.com' })).toThrow(/OPERATOR_EMAIL must be one e-mail address/);
  });
});
