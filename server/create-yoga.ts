import { getOperationAST, getVariableValues, type ExecutionArgs } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { publicSchema, schema } from '../schema/index.js';
import type { Context } from '../resolvers/context.js';
import { logUnexpectedErrors, maskError } from './mask-error.js';
import { checkCostRule } from './check-cost-rule.js';
import { refuseNulLiterals } from './refuse-nul-literals.js';
import { refuseMissingOperationType } from './refuse-missing-operation-type.js';
import { useJitErrorLocations } from './jit-error-locations.js';
import { refuseBadVariables } from './refuse-bad-variables.js';
import { maskEchoedLiterals } from './mask-echoed-literals.js';
import { useGraphqlDoorAnswers, type GraphqlDoorServerContext } from './graphql-http-plugin.js';
import { useSessionCsrfPrevention } from './session-csrf.js';

export interface YogaServerContext extends GraphqlDoorServerContext {
  readonly appContext: Context;
}
export type Yoga = YogaServerInstance<YogaServerContext, Context>;

/** Armor limits for every door (documented in docs/api.md). */
export const GRAPHQL_LIMITS = { maxDepth: 10, maxAliases: 40, maxCost: 5000, maxTokens: 2000, maxDirectives: 20, maxBatch: 5 } as const;

/** Our own rules: check units per operation (docs/checks.md, "Limits on one request") and no NUL in literals. */
const ownValidationRules: Plugin<YogaServerContext> = {
  onValidate({ addValidationRule }) {
    addValidationRule(checkCostRule);
    addValidationRule(refuseNulLiterals);
    addValidationRule(refuseMissingOperationType);
  },
};

function variablesCoerce({ schema, document, operationName, variableValues }: ExecutionArgs): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation) return false;
  if (!operation.variableDefinitions?.length) return true;
  return !('errors' in getVariableValues(schema, operation.variableDefinitions, variableValues ?? {}, { maxErrors: 1 }));
}

/** The one GraphQL pipeline: /graphql, REST and MCP all run operations through it. */
export function createGraphqlServer(options: {
  readonly graphiql: boolean;
  /** 'public': the checks-only schema of the public listener (schema/public-schema.ts). */
  readonly audience?: 'account' | 'public';
  /** Compile documents with graphql-jit (default); false only to compare answers in tests. */
  readonly jit?: boolean;
}): Yoga {
  return createYoga<YogaServerContext, Context>({
    // The public listener serves the checks only (schema/public-schema.ts).
    schema: options.audience === 'public' ? publicSchema : schema,
    graphqlEndpoint: '/graphql',
    graphiql: options.graphiql ? { title: 'Deliverability service GraphQL' } : false,
    // GraphiQL's page with its scripts and styles inline (from the npm package), so it works offline
    // and loads nothing from a CDN.
    renderGraphiQL,
    landingPage: false,
    logging: false,
    batching: { limit: GRAPHQL_LIMITS.maxBatch },
    // The door builds the request's Context (key, request id, loaders) before calling yoga.
    context: ({ appContext }) => appContext,
    maskedErrors: { maskError },
    plugins: [
      // yoga's CSRF prevention for requests signed in by the portal's session cookie: a GET, form or
      // text/plain request must carry x-graphql-yoga-csrf (session-csrf.ts; the door's stricter rules answer first).
      useSessionCsrfPrevention(),
      EnvelopArmorPlugin({
        maxDepth: { n: GRAPHQL_LIMITS.maxDepth },
        maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
        costLimit: { maxCost: GRAPHQL_LIMITS.maxCost },
        maxTokens: { n: GRAPHQL_LIMITS.maxTokens },
        maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
        blockFieldSuggestion: { enabled: true },
      }),
      // Our own rules: check units per operation (docs/checks.md, "Limits on one request") and no NUL in literals.
      ownValidationRules,
      // Variables in the wrong shape refused from their structure, before graphql-jit's check or
      // graphql-js's coercion would word them with the value sent (refuse-bad-variables.ts).
      refuseBadVariables(options.audience === 'public' ? 'public' : 'api'),
      // GraphQL's refusals of a literal print it: never a secret, never more than a few characters.
      maskEchoedLiterals,
      // The stack of each bug behind a masked 500, logged with the request's ids.
      logUnexpectedErrors,
      // /graphql's parameters as its door read them, and its answers written as the door answers (400 for a refusal).
      useGraphqlDoorAnswers(),
      // Executes each validated document as compiled JavaScript (graphql-jit, cached per parsed
      // document): the 500-domain dashboard's thousands of fields without graphql-js's walk per field.
      // graphql-jit words variable coercion refusals its own way: variables that graphql-js would
      // refuse (refuseBadVariables above answers those first) run through graphql-js, so a refusal
      // is the same on every door.
      options.jit !== false && useGraphQlJit({}, { enableIf: variablesCoerce }),
      options.jit !== false && useJitErrorLocations(),
    ],
  });
}
