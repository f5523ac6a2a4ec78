import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { LogIds } from '../observability/log-ids.js';
import { ApiError } from '../operations/api-error.js';
import { DomainError } from '../resolvers/domain-error.js';
import { domainErrorAnswer, isRefusal, type Refusal } from '../operations/refusal-answer.js';
import { GRAPHQL_WORDS } from './graphql-error-words.js';
import { log } from '../observability/log.js';
import { DATABASE_UNAVAILABLE_DETAIL, isDatabaseUnreachable } from './database-unreachable.js';

/**
 * Yoga's error masking: a rule's DomainError (worded for /graphql, graphql-error-words.ts) or an
 * ApiError keeps its status, code, detail and extras in `extensions` (and `http.status` for
 * /graphql); anything else becomes a bare 500 with no internals. The masked error
 * keeps what it hides as its originalError (never sent), so logUnexpectedErrors (below, a plugin
 * that knows the request's ids) writes its stack to the log.
 */
export function maskError(error: unknown): Error {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (isRefusal(original)) {
    return apiErrorToGraphQLError(original, error instanceof GraphQLError ? error : undefined);
  }
  if (isRequestFault(error)) return error;
  if (isDatabaseUnreachable(original)) {
    // The database went away mid-request: a 503 the caller can retry, not a 500 (an outage is not a bug).
    return apiErrorToGraphQLError(
      new ApiError(503, 'database_unavailable', DATABASE_UNAVAILABLE_DETAIL, { retry_after: 5 }),
      error instanceof GraphQLError ? error : undefined,
    );
  }
  return new GraphQLError('Something went wrong on our side; the request id in this answer lets the operator find what happened.', {
    ...(error instanceof GraphQLError ? { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path } : {}),
    ...(original instanceof Error ? { originalError: original } : {}),
    extensions: { code: 'internal_error', status: 500, http: { status: 500 } },
  });
}

/**
 * Validation and syntax errors, and variable coercion errors (their originalError is the inner
 * GraphQLError naming the field): the request's own fault, mapped to 400/422, never a 500.
 */
function isRequestFault(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError);
}

/** What an error of an answer hides when it is (or masking makes it) a bare 500: a bug to log; undefined for refusals and outages. */
export function unexpectedCauseOf(error: GraphQLError): unknown {
  const original = error.originalError ?? error;
  if (isRefusal(original) || isRequestFault(error) || isDatabaseUnreachable(original)) return undefined;
  return original;
}

/** The hidden errors already written to the log: a bug reaches both hooks below on /graphql, and is logged once. */
const logged = new WeakSet<object>();

function logUnexpected(errors: readonly GraphQLError[] | undefined, logIds: LogIds | undefined): void {
  for (const error of errors ?? []) {
    const cause = unexpectedCauseOf(error);
    if (cause === undefined) continue;
    if (typeof cause === 'object' && cause !== null) {
      if (logged.has(cause)) continue;
      logged.add(cause);
    }
    log('error', 'unexpected error', { ...logIds, error: cause instanceof Error ? (cause.stack ?? cause.message) : String(cause) });
  }
}

/**
 * Writes each bug behind an answer to the log with the request's ids, once, on every door. REST and
 * MCP run operations through the pipeline without HTTP, so execution is where they are seen; on
 * /graphql the answer as yoga sends it is read too, which holds bugs from before execution (a
 * validation rule that throws) as well. Either hook reads the errors before or after yoga masks them
 * alike: masking keeps the hidden error as the originalError.
 */
export const logUnexpectedErrors: Plugin<YogaContextWithIds, YogaServerContextWithIds> = {
  onExecute() {
    return {
      onExecuteDone({ result, args }) {
        if ('errors' in result) logUnexpected(result.errors, args.contextValue.logIds);
      },
    };
  },
  onResultProcess({ result, serverContext }) {
    logUnexpectedInAnswer(result, serverContext.appContext?.logIds);
  },
};

/**
 * The bugs behind an answer about to be sent (one result or a batch), as onResultProcess above reads
 * them: graphql-door.ts calls it for the operations it answers without yoga's result processing.
 */
export function logUnexpectedInAnswer(result: unknown, logIds: LogIds | undefined): void {
  for (const one of Array.isArray(result) ? result : [result]) {
    if (one && typeof one === 'object' && 'errors' in one && Array.isArray(one.errors)) logUnexpected(one.errors, logIds);
  }
}

/** The part of the GraphQL context this file reads: the request's ids for its log lines (resolvers/context.ts). */
interface YogaContextWithIds {
  readonly logIds?: LogIds;
}
/** /graphql's server context: the door's Context, handed to yoga.fetch by graphql-door.ts. */
interface YogaServerContextWithIds {
  readonly appContext?: YogaContextWithIds;
}

/**
 * A refusal as /graphql's error: a DomainError is worded for /graphql and stays the originalError,
 * so REST and MCP, which run operations through the same pipeline, word it their own way.
 */
export function apiErrorToGraphQLError(refusal: Refusal, located?: GraphQLError): GraphQLError {
  const apiError = refusal instanceof DomainError ? domainErrorAnswer(refusal, GRAPHQL_WORDS) : refusal;
  const headers: Record<string, string> = {};
  const retryAfter = apiError.extras.retry_after;
  if (typeof retryAfter === 'number') headers['Retry-After'] = String(retryAfter);
  return new GraphQLError(apiError.detail, {
    ...(located ? { nodes: located.nodes, source: located.source, positions: located.positions, path: located.path } : {}),
    originalError: refusal,
    extensions: { ...apiError.extras, code: apiError.code, status: apiError.status, detail: apiError.detail, http: { status: apiError.status, headers } },
  });
}
