import { describe, expect, it } from 'vitest';
import { checkLimitsFromEnv, DEFAULT_CHECK_LIMITS } from '../../resolvers/limits/check-limits.js';

describe('CHECKS_DNS_BUDGET, CHECKS_DEADLINE_MS and CHECKS_MAX_ANSWER_BYTES', () => {
  it('default to 400 questions, 20 s and 4 MiB, and take whole numbers', () => {
    expect(checkLimitsFromEnv({})).toEqual({ dnsBudget: 400, deadlineMs: 20_000, maxAnswerBytes: 4 * 1024 * 1024 });
    expect(DEFAULT_CHECK_LIMITS.dnsBudget).toBe(400);
    expect(checkLimitsFromEnv({ CHECKS_DNS_BUDGET: ' 1000 ', CHECKS_DEADLINE_MS: '5000', CHECKS_MAX_ANSWER_BYTES: '2097152' })).toEqual({
      dnsBudget: 1000,
      deadlineMs: 5000,
      maxAnswerBytes: 2_097_152,
    });
  });

  it('stop the start with a sentence naming the variable when a value is wrong', () => {
    expect(() => checkLimitsFromEnv({ CHECKS_DNS_BUDGET: 'lots' })).toThrow(/CHECKS_DNS_BUDGET must be a whole number of at least 1.*"lots"/);
    expect(() => checkLimitsFromEnv({ CHECKS_DEADLINE_MS: '20s' })).toThrow(/CHECKS_DEADLINE_MS must be a whole number of at least 100/);
    expect(() => checkLimitsFromEnv({ CHECKS_MAX_ANSWER_BYTES: '-1' })).toThrow(/CHECKS_MAX_ANSWER_BYTES/);
  });
});
