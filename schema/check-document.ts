import {
  getNamedType, isEnumType, isObjectType, isScalarType, isUnionType,
  type GraphQLField, type GraphQLObjectType, type GraphQLSchema,
} from 'graphql';
import type { WireExtensions } from './answer-type-dsl.js';
import { resultTypeName, type CheckArg, type CheckDeclaration } from './check-declarations.js';

/** `first_name: firstName` where the wire name differs, else the name alone. */
function fieldLine(field: GraphQLField<unknown, unknown>): string {
  const wire = (field.extensions as Partial<WireExtensions> | undefined)?.wireName ?? field.name;
  return wire === field.name ? field.name : `${wire}: ${field.name}`;
}

function selection(type: GraphQLObjectType, indent: string): string[] {
  const lines: string[] = [];
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    if (isScalarType(named) || isEnumType(named)) lines.push(`${indent}${fieldLine(field)}`);
    else lines.push(`${indent}${fieldLine(field)} {`, ...unionOrObject(named, `${indent}  `), `${indent}}`);
  }
  return lines;
}

function unionOrObject(type: ReturnType<typeof getNamedType>, indent: string): string[] {
  if (isObjectType(type)) return selection(type, indent);
  if (isUnionType(type)) return type.getTypes().flatMap((member) => [`${indent}... on ${member.name} {`, ...selection(member, `${indent}  `), `${indent}}`]);
  throw new Error(`Cannot select ${type.name}.`);
}

function argType(arg: CheckArg): string {
  if (arg.kind === 'list') return '[String!]!';
  if (arg.kind === 'enum') return arg.enumType as string;
  return arg.required ? 'String!' : 'String';
}

/**
 * The REST/MCP operation document of a check, printed from its answer type so that no field is
 * forgotten: every field selected, aliased back to its snake_case wire name, unions as inline
 * fragments. `npm run codegen` writes it to rest/operations/<name>.graphql (test/schema checks it is current).
 */
export function checkDocument(schema: GraphQLSchema, declaration: CheckDeclaration): string {
  const result = schema.getType(resultTypeName(declaration));
  if (!result) throw new Error(`The schema has no ${resultTypeName(declaration)}.`);
  const operation = declaration.field.charAt(0).toUpperCase() + declaration.field.slice(1);
  const variables = declaration.args.map((a) => `$${a.name}: ${argType(a)}`).join(', ');
  const call = declaration.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  return [
    `# Printed by \`npm run codegen\` from schema/check-declarations.ts and the ${declaration.answer} type; do not edit.`,
    `query ${operation}(${variables}) {`,
    `  ${declaration.field}(${call}) {`,
    ...unionOrObject(result, '    '),
    '  }',
    '}',
    '',
  ].join('\n');
}
