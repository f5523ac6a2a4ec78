import { readSettings } from '../../config/settings.js';
import { describe, expect, it } from 'vitest';

describe('CHECKS_DNS_BUDGET, CHECKS_DEADLINE_MS and CHECKS_MAX_ANSWER_BYTES', () => {
  it('default to 400 questions, 20 s and 4 MiB, and take whole numbers', () => {
    expect(readSettings({}).checkLimits).toEqual({ dnsBudget: 400, deadlineMs: 20_000, maxAnswerBytes: 4 * 1024 * 1024 });
    expect(readSettings({ CHECKS_DNS_BUDGET: ' 1000 ', CHECKS_DEADLINE_MS: '5000', CHECKS_MAX_ANSWER_BYTES: '2097152' }).checkLimits).toEqual({
      dnsBudget: 1000,
      deadlineMs: 5000,
      maxAnswerBytes: 2_097_152,
    });
  });

  it('stop the start with a sentence naming the variable when a value is wrong', () => {
    expect(() => readSettings({ CHECKS_DNS_BUDGET: 'lots' }).checkLimits).toThrow(/CHECKS_DNS_BUDGET must be a whole number of at least 1.*"lots"/);
    expect(() => readSettings({ CHECKS_DEADLINE_MS: '20s' }).checkLimits).toThrow(/CHECKS_DEADLINE_MS must be a whole number of at least 100/);
    expect(() => readSettings({ CHECKS_MAX_ANSWER_BYTES: '-1' }).checkLimits).toThrow(/CHECKS_MAX_ANSWER_BYTES/);
  });
});
