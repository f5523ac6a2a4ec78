import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';

/**
 * A mutation (or subscription) against a schema that has none is refused in validation, with a 400
 * and a sentence, rather than by execution as a 200 with `data: null`. The public listener's schema
 * holds the checks only: changing anything is the account API's business.
 */
export function refuseMissingOperationType(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      const schema = context.getSchema();
      const rootType =
        operation.operation === 'mutation'
          ? schema.getMutationType()
          : operation.operation === 'subscription'
            ? schema.getSubscriptionType()
            : schema.getQueryType();
      if (rootType) return;
      const detail =
        operation.operation === 'mutation'
          ? "This GraphQL endpoint serves the public checks only and has no mutations; send changes to the account API's /graphql with an API key."
          : `This GraphQL endpoint has no ${operation.operation} operations; send a query.`;
      context.reportError(
        new GraphQLError(detail, { nodes: [operation], extensions: { code: 'operation_not_supported', status: 400, detail, http: { status: 400 } } }),
      );
    },
  };
}
