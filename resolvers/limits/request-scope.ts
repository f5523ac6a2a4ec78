import { setMaxListeners } from 'node:events';
import { DomainError } from '../domain-error.js';
import { createQuestionBudget, type QuestionBudget } from '../../clients/dns/question-budget.js';
import type { CheckLimits } from '../../config/settings.js';
import { BULK_CHECKS, CHECK_COSTS, MAX_CHECK_COST, describeCheckCosts } from './check-costs.js';

/**
 * What one HTTP request's checks share, whatever door they came through: the DNS question budget, the
 * cancellation (caller hung up, or the deadline passed), the check units spent, the bulk items asked
 * and the answer bytes returned so far. Made on the request's first check; nothing outlives it.
 */
export interface RequestScope {
  readonly limits: CheckLimits;
  readonly budget: CountingBudget;
  /** Aborted when the caller hangs up or the deadline passes. */
  readonly signal: AbortSignal;
  /** True once the deadline (not a hang-up) ended the request's work. */
  readonly deadlinePassed: () => boolean;
  /** Spends a check field's units; over MAX_CHECK_COST is a 400 naming the limit. */
  claimCheck(field: string): void;
  /** Counts a bulk call's items against the request's total and grows the budget for them. */
  claimItems(field: string, count: number): void;
  /** Adds an answer's bytes; false when the request's answers would pass maxAnswerBytes. */
  claimAnswerBytes(bytes: number): boolean;
}

/** The budget, counting the questions it refused (so an answer can say the budget, not a timeout, failed it). */
export interface CountingBudget extends QuestionBudget {
  readonly refused: number;
}

function countingBudget(limit: number): CountingBudget {
  const inner = createQuestionBudget(limit);
  let refused = 0;
  return {
    take() {
      const ok = inner.take();
      if (!ok) refused += 1;
      return ok;
    },
    grow: (questions) => inner.grow(questions),
    get used() {
      return inner.used;
    },
    get limit() {
      return inner.limit;
    },
    get refused() {
      return refused;
    },
  };
}

export function createRequestScope(limits: CheckLimits, callerSignal?: AbortSignal): RequestScope {
  const controller = new AbortController();
  // Every check field, fetch and in-flight question of the request listens to this one signal.
  setMaxListeners(10_000, controller.signal);
  let deadlinePassed = false;
  const timer = setTimeout(() => {
    deadlinePassed = true;
    controller.abort(new Error(`The request ran past its ${limits.deadlineMs} ms deadline.`));
  }, limits.deadlineMs);
  // A finished request must not keep the process alive, nor a timer per request for 20 s.
  timer.unref();
  const onCallerGone = () => {
    clearTimeout(timer);
    controller.abort(new Error('The caller closed the connection.'));
  };
  if (callerSignal?.aborted) onCallerGone();
  else callerSignal?.addEventListener('abort', onCallerGone, { once: true });
  controller.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });

  const budget = countingBudget(limits.dnsBudget);
  let spent = 0;
  const items = new Map<string, number>();
  let answerBytes = 0;
  return {
    limits,
    budget,
    signal: controller.signal,
    deadlinePassed: () => deadlinePassed,
    claimCheck(field) {
      const cost = CHECK_COSTS[field] ?? 1;
      if (spent + cost > MAX_CHECK_COST) {
        throw new DomainError(
          'too_many_checks',
          `This request asks for more checks than one request may run: ${MAX_CHECK_COST} check units, counting every alias, batched operation and MCP message (${describeCheckCosts()}; ${spent} were spent before this one, which costs ${cost}). Send the rest in another request.`,
          { limit: MAX_CHECK_COST },
        );
      }
      spent += cost;
    },
    claimItems(field, count) {
      const bulk = BULK_CHECKS[field];
      if (!bulk) return;
      const total = (items.get(field) ?? 0) + count;
      if (total > bulk.limit) {
        throw new DomainError(
          'too_many_items',
          `This request asks ${field} about ${total} ${bulk.items} in all (counting every alias, batched operation and MCP message); one request may carry at most ${bulk.limit}, as one REST call does. Split the list over several requests.`,
          { limit: bulk.limit },
        );
      }
      items.set(field, total);
      budget.grow(count * bulk.questionsPerItem);
    },
    claimAnswerBytes(bytes) {
      if (answerBytes + bytes > limits.maxAnswerBytes) return false;
      answerBytes += bytes;
      return true;
    },
  };
}
