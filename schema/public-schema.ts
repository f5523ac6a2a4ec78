import { GraphQLObjectType, GraphQLSchema } from 'graphql';
import { checkDeclarations } from './check-declarations.js';

/**
 * The public listener's schema: the check fields of the one built schema, and nothing else. No
 * Mutation, and no account type: graphql-js collects the types reachable from this Query alone, so
 * introspection on {base_url}/graphql shows only the checks and their answer types. Built from the
 * same Pothos schema (the same type objects, resolvers and scope-auth), so a check answers alike on
 * both listeners. (@pothos/plugin-sub-graph would tag fields instead; this needs no extra package.)
 */
export function checksOnly(full: GraphQLSchema): GraphQLSchema {
  const query = full.getQueryType();
  if (!query) throw new Error('The schema has no Query type.');
  const config = query.toConfig();
  const names = new Set(checkDeclarations.map((d) => d.field));
  const fields = Object.fromEntries(Object.entries(config.fields).filter(([name]) => names.has(name)));
  return new GraphQLSchema({
    query: new GraphQLObjectType({ ...config, description: 'The public deliverability checks; keyless.', fields }),
    directives: full.getDirectives(),
  });
}
