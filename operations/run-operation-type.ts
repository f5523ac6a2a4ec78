import type { OperationRow } from './operation-table.js';
import type { Context } from '../resolvers/context.js';
import type { Door } from './describe-input-error.js';

/**
 * How a door runs an operation-table row: the row's operation with these variables, for this
 * request's Context, called through `door` (its refusals are worded for it, with the status of the
 * row's listener); resolves to the REST answer or rejects with the refusal: an ApiError, or a rule's DomainError the door words. The
 * server injects it (server/run-operation.ts builds it over the GraphQL pipeline), so the doors in
 * rest/ and mcp/ know the operation table and the schema's errors, never the server.
 */
export type RunOperation = (row: OperationRow, variables: Record<string, unknown>, ctx: Context, door: Exclude<Door, 'graphql'>) => Promise<unknown>;
