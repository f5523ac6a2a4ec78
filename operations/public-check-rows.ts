import type { OperationRow, ParamSpec, ToolAnnotations } from './operation-table.js';
import { checkDeclarations, resultTypeName, type CheckArg } from '../schema/check-declarations.js';
import { absentFieldDropper } from '../schema/drop-absent-fields.js';
import { declaredSchema } from '../schema/index.js';

/** The checks read DNS, RDAP and HTTPS live: nothing changes, but the answer depends on the outside world. */
const CHECKING: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

function paramOf(arg: CheckArg): ParamSpec {
  return {
    name: arg.name,
    in: 'query',
    type: 'string',
    required: arg.required,
    description: arg.description,
    ...(arg.kind === 'list' ? { list: true, ...(arg.maxItems ? { maxItems: arg.maxItems } : {}) } : {}),
    ...(arg.values ? { enum: arg.values } : {}),
  };
}

/** The public checks of SPEC 4.1, one row per declaration in schema/check-declarations.ts. */
export const publicCheckRows: readonly OperationRow[] = checkDeclarations.map((c) => ({
  name: c.name.replace(/-/g, '_'),
  listener: 'public',
  method: 'GET',
  path: `/.platform/functions/${c.name}`,
  document: c.name,
  unwrap: c.field,
  scope: null,
  rateLimit: 'public',
  summary: c.summary,
  params: c.args.map(paramOf),
  annotations: CHECKING,
  reshape: absentFieldDropper(declaredSchema, resultTypeName(c)),
}));
