import type { ApiError } from '../operations/api-error.js';
import { refusalAnswer, restCallOf, type DoorWords } from '../operations/refusal-answer.js';

/**
 * /graphql's words for a refusal's terms: inputs as the schema's arguments (camelCase, Relay's
 * first/after); other calls by their REST method and path, as /graphql's sentences have always
 * named them. `extensions.code` is the wire code and `extensions.status` the status of
 * operations/error-statuses.ts (apiErrorToGraphQLError in mask-error.ts).
 */
export const GRAPHQL_WORDS: DoorWords = {
  inputs: { idempotency_key: 'the argument "idempotencyKey"', page_limit: 'first', page_cursor: 'after' },
  operation: restCallOf,
};

/** The refusal as /graphql answers it, or null when the error is not a refusal. */
export function graphqlAnswerOf(error: unknown): ApiError | null {
  return refusalAnswer(error, GRAPHQL_WORDS);
}
