import { GraphQLError } from 'graphql';
import { ApiError } from '../resolvers/api-error.js';
import { log } from './log.js';
import { DATABASE_UNAVAILABLE_DETAIL, isDatabaseUnreachable } from './database-unreachable.js';

/**
 * Yoga's error masking: an ApiError keeps its status, code, detail and extras in `extensions` (and
 * `http.status` for /graphql); anything else is logged and becomes a bare 500 with no internals.
 */
export function maskError(error: unknown): Error {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof ApiError) {
    return apiErrorToGraphQLError(original, error instanceof GraphQLError ? error : undefined);
  }
  // Validation and syntax errors, and variable coercion errors (their originalError is the inner
  // GraphQLError naming the field): the request's own fault, mapped to 400/422, never a 500.
  if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) return error;
  if (isDatabaseUnreachable(original)) {
    // The database went away mid-request: a 503 the caller can retry, not a 500 (an outage is not a bug).
    return apiErrorToGraphQLError(
      new ApiError(503, 'database_unavailable', DATABASE_UNAVAILABLE_DETAIL, { retry_after: 5 }),
      error instanceof GraphQLError ? error : undefined,
    );
  }
  log('error', 'unexpected error', { error: original instanceof Error ? (original.stack ?? original.message) : String(original) });
  return new GraphQLError('Something went wrong on our side; the request id in this answer lets the operator find what happened.', {
    ...(error instanceof GraphQLError ? { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path } : {}),
    extensions: { code: 'internal_error', status: 500, http: { status: 500 } },
  });
}

export function apiErrorToGraphQLError(apiError: ApiError, located?: GraphQLError): GraphQLError {
  const headers: Record<string, string> = {};
  const retryAfter = apiError.extras.retry_after;
  if (typeof retryAfter === 'number') headers['Retry-After'] = String(retryAfter);
  return new GraphQLError(apiError.detail, {
    ...(located ? { nodes: located.nodes, source: located.source, positions: located.positions, path: located.path } : {}),
    originalError: apiError,
    extensions: { ...apiError.extras, code: apiError.code, status: apiError.status, detail: apiError.detail, http: { status: apiError.status, headers } },
  });
}
