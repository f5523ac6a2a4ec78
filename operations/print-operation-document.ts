import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { omittedOnTheWire } from '../schema/wire-field-extension.js';
import type { OperationRow } from './operation-table.js';

/** The first line of every printed document: the file is made, not written. */
export const PRINTED_HEADER = '# Printed by `npm run codegen` (scripts/print-schema.ts) from operations/operation-table.ts and the schema; do not edit.';

/**
 * A connection's `first` and `after` are the REST page parameters `limit` and `starting_after`
 * (operations/operation-table.ts, pageParams); every other argument is the variable of its own name.
 */
const VARIABLE_OF_ARGUMENT: Readonly<Record<string, string>> = { first: 'limit', after: 'startingAfter' };

/** The schema field a row's operation calls: its `field`, else the field it unwraps. */
export function rootFieldOf(row: OperationRow): string {
  const field = row.field ?? row.unwrap;
  if (field === undefined) throw new Error(`${row.name}: the row names no field (set field or unwrap).`);
  return field;
}

/**
 * The operation document of a row, printed from the schema in the order its fields are declared
 * (`declaredSchema`): the row's field with every argument bound to a variable, and below it every
 * field REST and MCP answer, without aliases (operations/wire-shape.ts gives the answer its wire
 * names), unions as one inline fragment per member. Left out: deprecated fields and those marked
 * `wireOmit` (schema/wire-field-extension.ts), unless the row's `alsoSelects` names them.
 */
export function printOperationDocument(schema: GraphQLSchema, row: OperationRow): string {
  const fieldName = rootFieldOf(row);
  const query = schema.getQueryType()?.getFields()[fieldName];
  const mutation = schema.getMutationType()?.getFields()[fieldName];
  const root = query ?? mutation;
  if (!root) throw new Error(`${row.name}: the schema has no query or mutation "${fieldName}".`);
  const alsoSelects = new Set(row.alsoSelects ?? []);
  const variables = new Map<string, string>();

  const call = (field: GraphQLField<unknown, unknown>): string => {
    if (field.args.length === 0) return field.name;
    return `${field.name}(${field.args.map((arg) => `${arg.name}: $${variableOf(arg)}`).join(', ')})`;
  };
  const variableOf = (arg: GraphQLArgument): string => {
    const name = VARIABLE_OF_ARGUMENT[arg.name] ?? arg.name;
    const type = String(arg.type);
    const known = variables.get(name);
    if (known !== undefined && known !== type) throw new Error(`${row.name}: the variable $${name} would be both ${known} and ${type}.`);
    variables.set(name, type);
    return name;
  };
  const selection = (type: GraphQLNamedType, indent: string): string[] => {
    if (isUnionType(type)) return type.getTypes().flatMap((member) => [`${indent}... on ${member.name} {`, ...selection(member, `${indent}  `), `${indent}}`]);
    if (!isObjectType(type) && !isInterfaceType(type)) return [];
    const lines: string[] = [];
    for (const field of Object.values(type.getFields())) {
      if (omittedOnTheWire(field) && !alsoSelects.has(`${type.name}.${field.name}`)) continue;
      const named = getNamedType(field.type);
      const inner = selection(named, `${indent}  `);
      lines.push(...(inner.length > 0 ? [`${indent}${call(field)} {`, ...inner, `${indent}}`] : [`${indent}${call(field)}`]));
    }
    return lines;
  };

  const body = selection(getNamedType(root.type), '    ');
  const top = body.length > 0 ? [`  ${call(root)} {`, ...body, '  }'] : [`  ${call(root)}`];
  const declared = [...variables].map(([name, type]) => `$${name}: ${type}`).join(', ');
  const operation = row.document.replace(/(^|-)([a-z])/g, (_m, _dash: string, c: string) => c.toUpperCase());
  return [PRINTED_HEADER, `${query ? 'query' : 'mutation'} ${operation}${declared ? `(${declared})` : ''} {`, ...top, '}', ''].join('\n');
}
