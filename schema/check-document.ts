import { getNamedType, isEnumType, isObjectType, isScalarType, isUnionType, type GraphQLField, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { WireExtensions } from './check-answers/wire-extensions.js';
import { resultTypeName, type CheckArg, type CheckDeclaration } from './check-declarations.js';

const wireOf = (field: GraphQLField<unknown, unknown>): string => (field.extensions as Partial<WireExtensions> | undefined)?.wireName ?? field.name;

/** `first_name: firstName` where the wire name differs (and aliases are wanted), else the name alone. */
function fieldLine(field: GraphQLField<unknown, unknown>, aliases: boolean): string {
  const wire = wireOf(field);
  return !aliases || wire === field.name ? field.name : `${wire}: ${field.name}`;
}

function selection(type: GraphQLObjectType, indent: string, aliases: boolean): string[] {
  const lines: string[] = [];
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    if (isScalarType(named) || isEnumType(named)) lines.push(`${indent}${fieldLine(field, aliases)}`);
    else lines.push(`${indent}${fieldLine(field, aliases)} {`, ...unionOrObject(named, `${indent}  `, aliases), `${indent}}`);
  }
  return lines;
}

function unionOrObject(type: ReturnType<typeof getNamedType>, indent: string, aliases = true): string[] {
  if (isObjectType(type)) return selection(type, indent, aliases);
  if (isUnionType(type))
    return type.getTypes().flatMap((member) => [`${indent}... on ${member.name} {`, ...selection(member, `${indent}  `, aliases), `${indent}}`]);
  throw new Error(`Cannot select ${String(type)}.`);
}

/**
 * Every field of a check's answer as one selection set without aliases, for a frontend that asks for
 * several checks in one query (aliases are capped at 40 per operation); `wireNames` turns the answer's
 * camelCase keys back into the documented snake_case ones.
 */
export function checkSelection(schema: GraphQLSchema, declaration: CheckDeclaration): string {
  const result = schema.getType(resultTypeName(declaration));
  if (!result) throw new Error(`The schema has no ${resultTypeName(declaration)}.`);
  return `{ ${unionOrObject(result, '', false)
    .map((l) => l.trim())
    .join(' ')} }`;
}

/** camelCase GraphQL name to snake_case wire name, for every check answer field whose names differ. */
export function wireNames(schema: GraphQLSchema): Record<string, string> {
  const out: Record<string, string> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) if (wireOf(field) !== field.name) out[field.name] = wireOf(field);
  }
  return out;
}

function argType(arg: CheckArg): string {
  if (arg.kind === 'list') return '[String!]!';
  if (arg.kind === 'enum') {
    if (arg.enumType === undefined) throw new Error(`The enum argument "${arg.name}" names no enumType in schema/check-declarations.ts.`);
    return arg.enumType;
  }
  return arg.required ? 'String!' : 'String';
}

/**
 * The REST/MCP operation document of a check, printed from its answer type so that no field is
 * forgotten: every field selected, aliased back to its snake_case wire name, unions as inline
 * fragments. `npm run codegen` writes it to operations/documents/<name>.graphql (test/schema checks it is current).
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
