import type { ApiError } from '../operations/api-error.js';
import { refusalAnswer, restCallOf, type DoorWords } from '../operations/refusal-answer.js';

/**
 * REST's words for a refusal's terms: inputs as a REST caller sends them (a header, query
 * parameters), other calls as method and path. Statuses: operations/error-statuses.ts.
 */
export const REST_WORDS: DoorWords = {
  inputs: { idempotency_key: 'the Idempotency-Key header', page_limit: 'limit', page_cursor: 'starting_after' },
  operation: restCallOf,
};

/** The refusal as REST answers it (status, code, sentence in REST's words, fields), or null when the error is not a refusal. */
export function restAnswerOf(error: unknown): ApiError | null {
  return refusalAnswer(error, REST_WORDS);
}
