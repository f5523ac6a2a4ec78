import { getNamedType, isEnumType, isObjectType, isScalarType, isUnionType, type GraphQLField, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { WireExtensions } from './check-answers/wire-extensions.js';
import { resultTypeName, type CheckDeclaration } from './check-declarations.js';

const wireOf = (field: GraphQLField<unknown, unknown>): string => (field.extensions as Partial<WireExtensions> | undefined)?.wireName ?? field.name;

function selection(type: GraphQLObjectType): string[] {
  const lines: string[] = [];
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    if (isScalarType(named) || isEnumType(named)) lines.push(field.name);
    else lines.push(`${field.name} {`, ...unionOrObject(named), '}');
  }
  return lines;
}

function unionOrObject(type: ReturnType<typeof getNamedType>): string[] {
  if (isObjectType(type)) return selection(type);
  if (isUnionType(type)) return type.getTypes().flatMap((member) => [`... on ${member.name} {`, ...selection(member), '}']);
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
  return `{ ${unionOrObject(result).join(' ')} }`;
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
