import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { publicSchema, schema } from '../schema/index.js';
import type { Context } from '../resolvers/context.js';
import { maskError } from './mask-error.js';
import { checkCostRule } from './check-cost-rule.js';
import { refuseNulLiterals } from './refuse-nul-literals.js';

export interface YogaServerContext { readonly appContext: Context }
export type Yoga = YogaServerInstance<YogaServerContext, Context>;

/** Armor limits for every door (documented in docs/api.md). */
export const GRAPHQL_LIMITS = { maxDepth: 10, maxAliases: 40, maxCost: 5000, maxTokens: 2000, maxDirectives: 20, maxBatch: 5 } as const;

/** Our own rules: check units per operation (docs/checks.md, "Limits on one request") and no NUL in literals. */
const ownValidationRules: Plugin<YogaServerContext> = {
  onValidate({ addValidationRule }) {
    addValidationRule(checkCostRule);
    addValidationRule(refuseNulLiterals);
  },
};

/** The one GraphQL pipeline: /graphql, REST and MCP all run operations through it. */
export function createGraphqlServer(options: { readonly graphiql: boolean; readonly audience?: 'account' | 'public' }): Yoga {
  return createYoga<YogaServerContext, Context>({
    // The public listener serves the checks only (schema/public-schema.ts).
    schema: options.audience === 'public' ? publicSchema : schema,
    graphqlEndpoint: '/graphql',
    graphiql: options.graphiql ? { title: 'Deliverability service GraphQL' } : false,
    landingPage: false,
    logging: false,
    batching: { limit: GRAPHQL_LIMITS.maxBatch },
    // The door builds the request's Context (key, request id, loaders) before calling yoga.
    context: ({ appContext }) => appContext,
    maskedErrors: { maskError },
    plugins: [
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
    ],
  });
}

