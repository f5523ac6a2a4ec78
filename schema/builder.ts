import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import { DomainError } from '../resolvers/domain-error.js';
import { missingScopeError, sessionRequiredError, unauthenticatedError } from '../resolvers/auth/auth-errors.js';
import type { Context } from '../resolvers/context.js';
import type { Scope } from '../resolvers/auth/scopes.js';
import { roleRefusal } from '../resolvers/people/permissions.js';

/** Scope-auth names are identifiers; the wire name of each is SPEC 5's. */
/** Scope names as the schema spells them, to the wire's (a Map: a name such as "toString" finds nothing). */
const WIRE_SCOPE: ReadonlyMap<string, Scope> = new Map([
  ['read', 'read'],
  ['write', 'write'],
  ['ordersPlace', 'orders:place'],
]);

export const builder = new SchemaBuilder<{
  Context: Context;
  /** session: a person signed in to the portal; key and user management need one (SPEC 5.4). */
  AuthScopes: { read: boolean; write: boolean; ordersPlace: boolean; session: boolean };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    // The two open-ended parts of the check answers (schema/check-answers/spf.ts and nameservers.ts say why).
    SpfRecordTree: { Input: unknown; Output: unknown };
    ProviderCounts: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    // One key lookup per request, memoised on the context; a database outage surfaces as a 503 here.
    authScopes: async (context) => {
      const caller = await context.caller();
      const has = (scope: Scope) => caller?.scopes.includes(scope) ?? false;
      return { read: has('read'), write: has('write'), ordersPlace: has('orders:place'), session: caller?.kind === 'session' };
    },
    unauthorizedError: (_parent, context, _info, result) => unauthorized(context, result.failure),
  },
});

/** 401 when there is no valid key at all, 403 naming the scope when the key lacks it. */
function unauthorized(context: Context, failure: AuthFailure): Error {
  const scopeFailure = findScopeFailure(failure);
  if (scopeFailure?.kind === AuthScopeFailureType.AuthScopeFunction && scopeFailure.error instanceof DomainError) return scopeFailure.error;
  // The scope check awaited the caller, so it is known by now.
  const caller = context.knownCaller();
  if (!caller) return unauthenticatedError(context.sentKey);
  const scopeName = scopeFailure && 'scope' in scopeFailure ? scopeFailure.scope : 'read';
  if (scopeName === 'session') return sessionRequiredError();
  const wire = WIRE_SCOPE.get(scopeName) ?? scopeName;
  // A signed-in person holds their role's scopes: the refusal names the role, not a key.
  if (caller.kind === 'session' && caller.role !== null && (wire === 'read' || wire === 'write' || wire === 'orders:place'))
    return roleRefusal(caller.role, wire);
  return missingScopeError(wire, caller.kind === 'token' ? 'token' : 'key');
}

function findScopeFailure(failure: AuthFailure): AuthFailure | undefined {
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    for (const inner of failure.failures) {
      const found = findScopeFailure(inner);
      if (found) return found;
    }
    return undefined;
  }
  return failure;
}

builder.queryType({});
