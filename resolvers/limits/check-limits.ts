/**
 * The bounds on one HTTP request that runs checks (docs/checks.md, "Limits on one request"). A keyless
 * caller must not turn one request into thousands of DNS questions at a third party's zone, a
 * many-megabyte answer, or work that outlives the connection.
 */
export interface CheckLimits {
  /** DNS questions one request may put on the wire before bulk growth (CHECKS_DNS_BUDGET). */
  readonly dnsBudget: number;
  /** Wall time one request's checks may run (CHECKS_DEADLINE_MS). */
  readonly deadlineMs: number;
  /** Bytes of check answers (JSON) one request may return, all its checks together (CHECKS_MAX_ANSWER_BYTES). */
  readonly maxAnswerBytes: number;
}

/**
 * 400 questions: check-deliverability asks 65 against the test fixture and the checks page (the grade
 * plus ten checks in one request) 71; a real domain with several MX hosts, an SPF tree at RFC 7208's
 * ten lookups and a DKIM scan stays under 300. 20 s: the slowest legitimate single-domain check on a
 * slow resolver (two 2 s tries on a dead name server) ends well inside it. 4 MiB: a 5,000-address
 * verify-email of 46-character addresses is 1.6 MB; addresses three times as long still fit.
 */
export const DEFAULT_CHECK_LIMITS: CheckLimits = { dnsBudget: 400, deadlineMs: 20_000, maxAnswerBytes: 4 * 1024 * 1024 };

function wholeNumber(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, what: string): number {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min) throw new Error(`${key} must be a whole number of at least ${min} (${what}), not "${raw}".`);
  return value;
}

/** Read once at start: a bad value stops the start with a sentence naming the variable. */
export function checkLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): CheckLimits {
  return {
    dnsBudget: wholeNumber(env, 'CHECKS_DNS_BUDGET', DEFAULT_CHECK_LIMITS.dnsBudget, 1, 'DNS questions per request'),
    deadlineMs: wholeNumber(env, 'CHECKS_DEADLINE_MS', DEFAULT_CHECK_LIMITS.deadlineMs, 100, 'milliseconds'),
    maxAnswerBytes: wholeNumber(env, 'CHECKS_MAX_ANSWER_BYTES', DEFAULT_CHECK_LIMITS.maxAnswerBytes, 1024, 'bytes'),
  };
}
