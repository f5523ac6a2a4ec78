import type { OperationRow } from './operation-table.js';
import type { Context } from '../resolvers/context.js';
import type { Door } from './describe-input-error.js';
import type { RateLimitOutcome } from '../resolvers/limits/rate-limits.js';

/**
 * A call's variables, or how to read them from the request: read only once the call is admitted, so
 * a caller without a key or scope learns no input rule from a 400 or 422 first.
 */
export type OperationInput = Record<string, unknown> | (() => Promise<Record<string, unknown>> | Record<string, unknown>);

/**
 * How a door runs an operation-table row: the call admitted (what it spends, told to `onSpent`, and
 * who may call it: server/admit-caller.ts, the one place either is decided for REST and MCP), then
 * the row's operation with the input's variables, for this request's Context, called through `door`
 * (its refusals are worded for it, with the status of the row's listener); resolves to the REST
 * answer or rejects with the refusal: an ApiError, or a rule's DomainError the door words. The
 * server injects it (server/run-operation.ts builds it over the GraphQL pipeline), so the doors in
 * rest/ and mcp/ know the operation table and the schema's errors, never the server.
 */
export type RunOperation = (
  row: OperationRow,
  input: OperationInput,
  ctx: Context,
  door: Exclude<Door, 'graphql'>,
  onSpent?: (outcome: RateLimitOutcome) => void,
) => Promise<unknown>;
