import type { ApiError } from '../operations/api-error.js';
import { refusalAnswer, restCallOf, type DoorWords } from '../operations/refusal-answer.js';

/**
 * MCP's words for a refusal's terms: inputs as a tool's arguments (snake_case, as REST's); other
 * calls by their REST method and path, as MCP's sentences have always named them. The isError
 * text carries the status of operations/error-statuses.ts (toolError in create-mcp-handler.ts).
 */
export const MCP_WORDS: DoorWords = {
  inputs: { idempotency_key: 'the argument "idempotency_key"', page_limit: 'limit', page_cursor: 'starting_after' },
  operation: restCallOf,
};

/** The refusal as an MCP tool answers it, or null when the error is not a refusal. */
export function mcpAnswerOf(error: unknown): ApiError | null {
  return refusalAnswer(error, MCP_WORDS);
}
