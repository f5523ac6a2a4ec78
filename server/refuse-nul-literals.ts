import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';

/**
 * A validation rule: a string literal in the document holding a NUL character (GraphQL's "\u0000"
 * escape) is refused with a 400 before it can reach a resolver or PostgreSQL. Variables and bodies
 * are judged at the door (refuse-bad-text.ts); GraphQL's lexer already refuses lone surrogates.
 */
export function refuseNulLiterals(context: ValidationContext): ASTVisitor {
  return {
    StringValue(node) {
      if (!node.value.includes('\u0000')) return;
      const detail = 'A string in the query holds a NUL character (\\u0000); remove it.';
      context.reportError(new GraphQLError(detail, { nodes: [node], extensions: { code: 'invalid_text', status: 400, detail, http: { status: 400 } } }));
    },
  };
}
