import type { ExecutionResult, GraphQLError } from 'graphql';
import type { OperationRow } from '../operations/operation-table.js';
import type { OperationInput, RunOperation } from '../operations/run-operation-type.js';
import { loadDocument } from '../operations/operation-document.js';
import type { Context } from '../resolvers/context.js';
import { ApiError } from '../operations/api-error.js';
import { isRefusal, type Refusal } from '../operations/refusal-answer.js';
import type { RateLimitOutcome } from '../resolvers/limits/rate-limits.js';
import { admitOperation } from './admit-caller.js';
import type { Yoga } from './create-yoga.js';
import { graphqlErrorToApiError } from './graphql-error-to-api-error.js';
import { firstVariableProblem, variableProblemToApiError } from './refuse-bad-variables.js';
import { variablesFromWire } from '../operations/wire-shape.js';
import { rowAnswer } from '../operations/row-answer.js';
import type { Door } from '../operations/describe-input-error.js';

/**
 * The operation runner REST and MCP are given: the call admitted by the door policy (admit-caller.ts:
 * the allowance it spends, then its key and scope), then the row's operation runs in-process through the same
 * envelop pipeline as /graphql (the parse and validation caches, armor's limits, our validation
 * rules, the context, scope-auth in the schema, error masking), with no HTTP request, JSON body or
 * JSON answer in between. A resolver's refusal reaches the door as the DomainError it threw (the door words it); variables
 * in the wrong shape are refused from their structure (refuse-bad-variables.ts), and GraphQL's own
 * validation refusals from their extensions (graphql-error-to-api-error.ts).
 */
export function createOperationRunner(yoga: Yoga): RunOperation {
  return async function runOperation(
    row: OperationRow,
    input: OperationInput,
    ctx: Context,
    door: Exclude<Door, 'graphql'>,
    onSpent?: (outcome: RateLimitOutcome) => void,
  ): Promise<unknown> {
    // The door policy, once per call: what it spends and who may make it, before its input is read.
    await admitOperation(row, ctx, door, onSpent);
    const variables = typeof input === 'function' ? await input() : input;
    const { source, operationName } = loadDocument(row.document);
    const enveloped = yoga.getEnveloped({ appContext: ctx });
    const document = enveloped.parse(source);
    const invalid = enveloped.validate(enveloped.schema, document);
    if (invalid.length > 0) throw graphqlErrorToApiError(invalid);
    const variableValues = variablesFromWire(enveloped.schema, document, operationName, variables);
    // Variables in the wrong shape, told from their structure for this door (never from graphql-js's message text).
    const problem = firstVariableProblem(enveloped.schema, document, operationName, variableValues);
    if (problem) throw variableProblemToApiError(problem, door, row.listener);
    const contextValue = await enveloped.contextFactory();
    const result = (await enveloped.execute({ schema: enveloped.schema, document, contextValue, variableValues, operationName })) as ExecutionResult;
    if (result.errors?.length) throw firstApiError(result.errors);
    if (!result.data) throw new ApiError(500, 'internal_error', 'The operation returned no data.');
    return rowAnswer(enveloped.schema, row, result.data as Record<string, unknown>);
  };
}

/**
 * The masked errors keep the DomainError a resolver threw (or the ApiError masking made: 500, 503)
 * as their originalError; the first of those is the answer, a DomainError still to be worded by the
 * door that catches it. Without one, the errors are GraphQL's own.
 */
function firstApiError(errors: readonly GraphQLError[]): Refusal {
  for (const error of errors) {
    if (isRefusal(error.originalError)) return error.originalError;
  }
  const masked = errors.find((e) => typeof e.extensions.status === 'number');
  if (masked) return new ApiError(Number(masked.extensions.status), String(masked.extensions.code ?? 'internal_error'), masked.message);
  return graphqlErrorToApiError(errors);
}
