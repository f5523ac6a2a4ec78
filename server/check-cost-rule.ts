import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext } from 'graphql';
import { CHECK_COSTS, MAX_CHECK_COST, describeCheckCosts } from '../resolvers/limits/check-costs.js';

/**
 * A validation rule: an operation whose check fields (aliases and fragments included) cost more than
 * MAX_CHECK_COST check units is refused before anything runs, with a 400 and a sentence. Batched
 * operations and MCP messages are summed at run time by the request scope; this rule spares the
 * common case (many aliases in one document) from running half of it.
 */
export function checkCostRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      if (operation.operation !== 'query') return;
      const cost = costOf(operation.selectionSet, context, new Set());
      if (cost <= MAX_CHECK_COST) return;
      const detail = `This query asks for ${cost} check units; one request may run at most ${MAX_CHECK_COST} (${describeCheckCosts()}; counting every alias). Send the rest in another request.`;
      context.reportError(
        new GraphQLError(detail, {
          nodes: [operation],
          extensions: { code: 'too_many_checks', status: 400, detail, limit: MAX_CHECK_COST, http: { status: 400 } },
        }),
      );
    },
  };
}

/** Check fields sit at the top of a query; fragments spread there are followed (each once per path, so a cycle ends). */
function costOf(selectionSet: SelectionSetNode, context: ValidationContext, onPath: Set<string>): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) total += CHECK_COSTS[selection.name.value] ?? 0;
    else if (selection.kind === Kind.INLINE_FRAGMENT) total += costOf(selection.selectionSet, context, onPath);
    else {
      const name = selection.name.value;
      const fragment = context.getFragment(name);
      if (!fragment || onPath.has(name)) continue;
      onPath.add(name);
      total += costOf(fragment.selectionSet, context, onPath);
      onPath.delete(name);
    }
  }
  return total;
}
