import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import type { FullCheckContext } from '../checks/full-check-context.js';
import type { DnsLookup } from '../../clients/dns/dns-types.js';
import { parseBulkInput } from '../checks/bulk-input.js';
import { createDnssecTally } from '../checks/dns/dnssec-tally.js';
import { BULK_CHECKS } from './check-costs.js';
import { recordCheckOutcome } from '../../observability/metrics.js';

/** After the request's signal fires, how long a check may take to return what it has (its lookups fail at once by then). */
const GRACE_AFTER_ABORT_MS = 1000;

interface CheckAnswerShape {
  readonly status: string;
  readonly summary: string;
  readonly findings: readonly unknown[];
}

function isCheckAnswer(value: unknown): value is CheckAnswerShape {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    typeof value.status === 'string' &&
    'summary' in value &&
    typeof value.summary === 'string' &&
    'findings' in value &&
    Array.isArray(value.findings)
  );
}

/** The answer with status `error`, the reason as its summary and first finding; the check's own fields stay. */
function incomplete(answer: CheckAnswerShape, code: string, message: string): CheckAnswerShape {
  return { ...answer, status: 'error', summary: message, findings: [{ severity: 'error', code, message }, ...answer.findings] };
}

/**
 * Runs one check field inside its HTTP request's bounds, the same on every door: spends the field's
 * check units and its bulk items (growing the DNS budget for them), watches its lookups so an answer
 * cut short by the budget or the deadline says so instead of looking like a DNS outage, stops waiting
 * once the request is cancelled, and refuses an answer that would take the request past its size cap.
 */
export async function runBoundedCheck<Input>(
  field: string,
  input: Input,
  ctx: Context,
  run: (input: Input, checks: FullCheckContext) => Promise<unknown>,
): Promise<unknown> {
  const scope = ctx.scope();
  scope.claimCheck(field);
  const bulk = BULK_CHECKS[field];
  if (bulk) scope.claimItems(field, countItems((input as Record<string, unknown>)[bulk.param], bulk.param, bulk.limit));

  const base = ctx.checks();
  const dnssec = createDnssecTally();
  let sawBudget = false;
  let sawCancelled = false;
  const watch = (failure: string | null): void => {
    if (failure === 'budget') sawBudget = true;
    if (failure === 'cancelled') sawCancelled = true;
  };
  // Every capability of the request's lookup is passed on: a wrapper that dropped one (askServer, the
  // direct questions of delegation health) silently turned that part of a check off on every door.
  const askServer = base.dns.askServer?.bind(base.dns);
  const dns: DnsLookup = {
    async lookup(name, type) {
      const answer = await dnssec.track(name, type, base.dns.lookup(name, type));
      watch(answer.ok ? null : answer.failure);
      return answer;
    },
    ...(askServer && {
      async askServer(address, name, type) {
        const reply = await askServer(address, name, type);
        watch(reply.ok ? null : reply.failure);
        return reply;
      },
    }),
    get questionsAsked() {
      return base.dns.questionsAsked;
    },
    budget: base.dns.budget,
    signal: base.dns.signal,
  };

  const limits = scope.limits;
  const deadlineSentence = `This request ran past its ${limits.deadlineMs} ms deadline (CHECKS_DEADLINE_MS) before this check finished, so lookups were abandoned and the answer is incomplete; ask for fewer checks or items per request.`;
  // The HTTPS fetcher resolves through this check's view too, so a fetched host's addresses count in its DNSSEC status.
  const https = base.https.withLookup?.(dns) ?? base.https;
  let answer = await untilAborted(run(input, { ...base, dns, https }), scope.signal);
  if (answer === ABANDONED) {
    answer = { status: 'error', summary: deadlineSentence, findings: [{ severity: 'error', code: 'deadline_passed', message: deadlineSentence }] };
  } else if (isCheckAnswer(answer)) {
    if (sawBudget) {
      answer = incomplete(
        answer,
        'dns_budget_spent',
        `This request spent its DNS question budget (${scope.budget.limit} questions, CHECKS_DNS_BUDGET) before this check finished, so some lookups were not made and the answer is incomplete; ask for fewer checks in one request.`,
      );
    } else if (sawCancelled && scope.deadlinePassed()) {
      answer = incomplete(answer, 'deadline_passed', deadlineSentence);
    }
  }

  if (isCheckAnswer(answer)) {
    // Every door's answer says how far DNSSEC vouches for the answers the check used (docs/dnssec.md).
    const withDnssec = { ...answer, dnssec: dnssec.verdict() };
    answer = withDnssec;
    recordCheckOutcome(field, withDnssec.status);
  }
  const bytes = Buffer.byteLength(JSON.stringify(answer) ?? '');
  if (!scope.claimAnswerBytes(bytes)) {
    throw new DomainError(
      'answer_too_large',
      `The answer of ${field} would take this request's answers past ${limits.maxAnswerBytes} bytes (CHECKS_MAX_ANSWER_BYTES), so it was dropped; ask for fewer items or checks per request.`,
      { limit: limits.maxAnswerBytes },
    );
  }
  return answer;
}

/** Distinct items of a bulk argument as the check will count them; 0 when the check will refuse it with its own sentence. */
function countItems(raw: unknown, param: string, limit: number): number {
  try {
    return parseBulkInput(raw, param, limit, '').length;
  } catch (error) {
    if (error instanceof DomainError) return 0;
    throw error;
  }
}

const ABANDONED = Symbol('abandoned');

/** The check's answer, or ABANDONED when it has not returned GRACE_AFTER_ABORT_MS after the request's signal fired. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABANDONED> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const abandoned = new Promise<typeof ABANDONED>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve(ABANDONED), GRACE_AFTER_ABORT_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, abandoned]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  });
}
