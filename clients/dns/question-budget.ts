/**
 * How many DNS questions one HTTP request may put on the wire, shared by everything the request runs
 * (every GraphQL alias and batched operation, every MCP message of one POST, every item of a bulk
 * check). A keyless caller must not be able to turn one request into thousands of questions at a
 * third party's zone: once the budget is spent, further lookups fail at once with failure `budget`
 * and no packet is sent.
 */
export interface QuestionBudget {
  /** Takes one question; false (and nothing taken) when the budget is spent. */
  take(): boolean;
  /** Raises the limit, for bulk checks whose budget grows with their items. */
  grow(questions: number): void;
  readonly used: number;
  readonly limit: number;
}

export function createQuestionBudget(limit: number): QuestionBudget {
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`A question budget must be a whole number of at least 0, not ${limit}.`);
  let used = 0;
  let current = limit;
  return {
    take() {
      if (used >= current) return false;
      used += 1;
      return true;
    },
    grow(questions: number) {
      if (Number.isInteger(questions) && questions > 0) current += questions;
    },
    get used() {
      return used;
    },
    get limit() {
      return current;
    },
  };
}

/** For tests and tools that want no limit. */
export function unlimitedQuestionBudget(): QuestionBudget {
  return createQuestionBudget(Number.MAX_SAFE_INTEGER);
}
