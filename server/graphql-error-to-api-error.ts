import type { GraphQLError } from 'graphql';
import { ApiError } from '../operations/api-error.js';
import { isRefusal, type Refusal } from '../operations/refusal-answer.js';

/** The most of a GraphQL message an answer repeats (a refusal never needs more; a caller may send megabytes). */
const MESSAGE_SHOWN = 300;

/**
 * Turns GraphQL's own refusals of an operation REST or MCP ran (validation: errors no resolver
 * threw) into the refusal the caller sees, from their structure: our validation rules and a
 * scalar's refusal carry their status, code and detail in `extensions` or as the originalError;
 * armor's limits are marked `BAD_USER_INPUT`. No message text is searched (graphql-js's messages
 * hold what the caller sent). Variables in the wrong shape never come here: server/run-operation.ts
 * refuses them first, from their structure (refuse-bad-variables.ts).
 */
export function graphqlErrorToApiError(errors: readonly GraphQLError[]): Refusal {
  const first = errors[0];
  if (!first) return new ApiError(500, 'internal_error', 'The operation returned no data and no error.');
  if (isRefusal(first.originalError)) return first.originalError;
  const { status, code, detail } = first.extensions;
  if (typeof status === 'number' && typeof code === 'string' && typeof detail === 'string') return new ApiError(status, code, detail);
  const message = shorten(first.message.startsWith('Syntax Error: ') ? first.message.slice('Syntax Error: '.length) : first.message);
  if (code === 'BAD_USER_INPUT') return new ApiError(400, 'query_too_complex', `${message} Simplify the query.`);
  return new ApiError(400, 'invalid_request', message);
}

const shorten = (text: string) => (text.length > MESSAGE_SHOWN ? `${text.slice(0, MESSAGE_SHOWN)}…` : text);
