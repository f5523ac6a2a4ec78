import type { OperationRow } from '../operations/operation-table.js';
import type { Door } from '../operations/describe-input-error.js';
import type { Context } from '../resolvers/context.js';
import { refuseWithoutKeyOrScope } from '../resolvers/auth/refuse-caller.js';
import type { RateLimitOutcome } from '../resolvers/limits/rate-limits.js';
import { lookAtAllowance, principalOf, spendAllowance, spendFor, type Spend } from '../resolvers/limits/door-policy.js';

/**
 * The door policy of one operation-table call, decided here once for REST and MCP (the operation
 * runner, server/run-operation.ts, asks before it reads the call's input): what the call spends of
 * whose allowance, then whether its caller may call the row at all (no valid key: 401; a key without
 * the row's scope: 403, resolvers/auth/refuse-caller.ts). The spend is told to `onSpent` before the
 * refusal, so a refused answer still carries the allowance headers. The schema's scope-auth enforces
 * the same scope again on every field it resolves.
 */
export async function admitOperation(
  row: OperationRow,
  ctx: Context,
  door: Exclude<Door, 'graphql'>,
  onSpent?: (outcome: RateLimitOutcome) => void,
): Promise<void> {
  const outcome = door === 'mcp' ? await mcpToolSpend(row, ctx) : await restCallSpend(row, ctx);
  if (outcome) onSpent?.(outcome);
  await refuseWithoutKeyOrScope(row.scope, ctx);
}

/**
 * A REST call: account rows count per key in the row's class (a GET always reads), public rows per
 * client address. A call to an account row without a valid key spends nothing (the admission
 * refuses it 401); its headers show the client address's public allowance.
 */
async function restCallSpend(row: OperationRow, ctx: Context): Promise<RateLimitOutcome | null> {
  if (row.scope === null) return spendAllowance(ctx.services.rateLimits, { kind: 'address', clientAddress: ctx.clientAddress }, spendFor('public'));
  const principal = await principalOf(ctx);
  if (principal.kind !== 'key') return lookAtAllowance(ctx.services.rateLimits, principal);
  return spendAllowance(ctx.services.rateLimits, principal, spendFor(row.method === 'GET' ? 'read' : row.rateLimit));
}

/**
 * An MCP tool call: its message already spent a read at the MCP door (every message counts, SPEC 8);
 * a tool whose REST path changes something also spends the changing allowance, as REST does, so a
 * key refused there cannot change through MCP. A key without the row's scope spends nothing more.
 */
async function mcpToolSpend(row: OperationRow, ctx: Context): Promise<RateLimitOutcome | null> {
  if (row.scope === null || row.rateLimit === 'read') return null;
  const caller = await ctx.caller();
  if (!caller?.scopes.includes(row.scope)) return null;
  return spendAllowance(ctx.services.rateLimits, { kind: 'key', caller }, spendFor(row.rateLimit));
}

/**
 * A /graphql request (our frontends, the portal, GraphiQL): its operations count against the
 * caller's allowances as REST and MCP count them (server/graphql-spend.ts), the key's, the portal
 * session's, or else the client address's; a request that runs nothing (GraphiQL's page) only
 * looks. Scopes are the schema's to enforce there, field by field.
 */
export async function admitGraphqlRequest(ctx: Context, spend: Spend | null): Promise<RateLimitOutcome | null> {
  const principal = await principalOf(ctx);
  return spend ? spendAllowance(ctx.services.rateLimits, principal, spend) : lookAtAllowance(ctx.services.rateLimits, principal);
}
