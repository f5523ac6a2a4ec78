import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, Kind } from 'graphql';
import type { OperationRow } from '../rest/operation-table.js';
import type { Context } from '../resolvers/context.js';
import { ApiError } from '../resolvers/api-error.js';
import { missingScopeError, unauthenticatedError } from '../resolvers/auth/auth-errors.js';
import type { Yoga } from './create-yoga.js';
import { graphqlErrorToApiError, type GraphqlErrorJson } from './graphql-error-to-api-error.js';

interface LoadedDocument { readonly source: string; readonly operationName: string }

const documents = new Map<string, LoadedDocument>();

/** Reads rest/operations/<name>.graphql once and finds its operation's name. */
export function loadDocument(name: string): LoadedDocument {
  let doc = documents.get(name);
  if (!doc) {
    const source = readFileSync(fileURLToPath(new URL(`../rest/operations/${name}.graphql`, import.meta.url)), 'utf8');
    const operation = parse(source).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (!operation || operation.kind !== Kind.OPERATION_DEFINITION || !operation.name) throw new Error(`rest/operations/${name}.graphql must hold one named operation.`);
    doc = { source, operationName: operation.name.value };
    documents.set(name, doc);
  }
  return doc;
}

/**
 * Runs an operation-table row in-process through the same yoga pipeline as /graphql (armor limits,
 * scope-auth, error masking) and returns the REST answer, or throws the ApiError a caller should see.
 */
export async function runOperation(yoga: Yoga, row: OperationRow, variables: Record<string, unknown>, ctx: Context): Promise<unknown> {
  await refuseWithoutKeyOrScope(row, ctx);
  const { source, operationName } = loadDocument(row.document);
  const response = await yoga.fetch('http://internal/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: source, variables, operationName }),
  }, { appContext: ctx });
  const result = (await response.json()) as { data?: Record<string, unknown> | null; errors?: GraphqlErrorJson[] };
  if (result.errors?.length) throw graphqlErrorToApiError(result.errors);
  if (!result.data) throw new ApiError(500, 'internal_error', 'The operation returned no data.');
  const answer = row.unwrap ? result.data[row.unwrap] : result.data;
  return row.reshape ? row.reshape(answer) : answer;
}

/**
 * GraphQL coerces variables before any resolver runs, so a malformed body from a caller without a
 * key would be a 422 before scope-auth could say 401. REST and MCP name the row's scope, so they ask
 * first: no valid key is a 401, a key without the row's scope a 403, in the same words scope-auth
 * uses. The schema still enforces the same scopes on every field (test/account/keys-and-scopes.test.ts
 * checks that the row and the field agree).
 */
async function refuseWithoutKeyOrScope(row: OperationRow, ctx: Context): Promise<void> {
  if (row.scope === null) return;
  const caller = await ctx.caller();
  if (!caller) throw unauthenticatedError(ctx.sentKey);
  if (!caller.scopes.includes(row.scope)) throw missingScopeError(row.scope);
}
