import { builder } from './builder.js';
import { checkAnswerTypes, checkArgumentEnums, UnfinishedCheck } from './check-answers/index.js';
import { checkDeclarations, resultTypeName, type CheckArg, type CheckDeclaration } from './check-declarations.js';
import type { CheckResultBase } from '../resolvers/checks/check-result.js';
import type { Context } from '../resolvers/context.js';
import { runBoundedCheck } from '../resolvers/limits/run-bounded-check.js';

/** Every answer carries status, summary, findings and dnssec; a check's own answer carries more. */
const COMMON_KEYS: ReadonlySet<string> = new Set(['status', 'summary', 'findings', 'dnssec']);

/**
 * One public field per check declaration, open to every caller (no authScopes). Every field runs
 * inside its HTTP request's bounds (runBoundedCheck: DNS budget, deadline, check units, bulk items,
 * answer size), shared with the request's other aliases, batched operations and MCP messages.
 */
function checkField(declaration: CheckDeclaration): void {
  const answer = checkAnswerTypes[declaration.answer];
  const result = builder.unionType(resultTypeName(declaration), {
    description: `${declaration.name}'s answer (${declaration.answer}), or UnfinishedCheck when the request's deadline cut it off before it answered.`,
    types: [answer, UnfinishedCheck],
    // A cut-off answer holds only the common fields; every check's own answer holds more.
    resolveType: (value) => (Object.keys(value).some((key) => !COMMON_KEYS.has(key)) ? answer : UnfinishedCheck),
  });
  builder.queryField(declaration.field, (t) =>
    t.field({
      type: result,
      description: `${declaration.summary} (${declaration.name}; fields and finding codes in docs/checks.md)`,
      args: Object.fromEntries(declaration.args.map((arg) => [arg.name, argOf(t.arg, arg)])),
      resolve: async (_root, args, ctx: Context) => {
        const input: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(args)) {
          if (value !== null && value !== undefined) input[name] = value;
        }
        const answer = await runBoundedCheck(declaration.field, input, ctx, declaration.run);
        if (!isCheckResult(answer))
          throw new Error(`${declaration.name} returned no check answer (an object with a status); its run in schema/check-declarations.ts must return one.`);
        return answer;
      },
    }),
  );
}

/** Every check's run (and runBoundedCheck's cut-off answer) returns an object with the common fields. */
function isCheckResult(value: unknown): value is CheckResultBase {
  return typeof value === 'object' && value !== null && 'status' in value;
}

type ArgBuilder = Parameters<Parameters<typeof builder.queryField>[1]>[0]['arg'];

function argOf(arg: ArgBuilder, spec: CheckArg) {
  const description = spec.maxItems ? `${spec.description} (a list; REST takes it comma-separated)` : spec.description;
  switch (spec.kind) {
    case 'list':
      return arg.stringList({ required: true, description });
    case 'enum':
      if (spec.enumType === undefined) throw new Error(`The enum argument "${spec.name}" names no enumType in schema/check-declarations.ts.`);
      return arg({ type: checkArgumentEnums[spec.enumType], required: spec.required, description });
    default:
      return arg.string({ required: spec.required, description });
  }
}

for (const declaration of checkDeclarations) checkField(declaration);
