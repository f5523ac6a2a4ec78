import { builder } from './builder.js';
import './check-answers.js';
import { answerEnumRef, answerUnion } from './answer-type-dsl.js';
import { checkDeclarations, resultTypeName, type CheckArg, type CheckDeclaration } from './check-declarations.js';
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
  const result = answerUnion(
    resultTypeName(declaration),
    `${declaration.name}'s answer (${declaration.answer}), or UnfinishedCheck when the request's deadline cut it off before it answered.`,
    [declaration.answer, 'UnfinishedCheck'],
    // A cut-off answer holds only the common fields; every check's own answer holds more.
    (value) => (Object.keys(value).some((key) => !COMMON_KEYS.has(key)) ? declaration.answer : 'UnfinishedCheck'),
  );
  builder.queryField(declaration.field, (t) =>
    t.field({
      type: result,
      description: `${declaration.summary} (${declaration.name}; fields and finding codes in docs/checks.md)`,
      args: Object.fromEntries(declaration.args.map((arg) => [arg.name, argOf(t.arg, arg)])),
      resolve: (_root, args, ctx: Context) => {
        const input: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(args)) {
          if (value !== null && value !== undefined) input[name] = value;
        }
        return runBoundedCheck(declaration.field, input, ctx, declaration.run);
      },
    }),
  );
}

type ArgBuilder = Parameters<Parameters<typeof builder.queryField>[1]>[0]['arg'];

function argOf(arg: ArgBuilder, spec: CheckArg) {
  const description = spec.maxItems ? `${spec.description} (a list; REST takes it comma-separated)` : spec.description;
  switch (spec.kind) {
    case 'list':
      return arg.stringList({ required: true, description });
    case 'enum':
      return arg({ type: answerEnumRef(spec.enumType ?? ''), required: spec.required, description });
    default:
      return arg.string({ required: spec.required, description });
  }
}

for (const declaration of checkDeclarations) checkField(declaration);
