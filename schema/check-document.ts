import { getNamedType, isEnumType, isObjectType, isScalarType, isUnionType, type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { checkDeclarations, resultTypeName, type CheckDeclaration } from './check-declarations.js';
import { wireNameOf } from './wire-field-extension.js';

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
 * several checks in one query (aliases are capped at 40 per operation); `wireNames` gives the page the
 * documented snake_case names of the answer's camelCase keys.
 */
export function checkSelection(schema: GraphQLSchema, declaration: CheckDeclaration): string {
  const result = schema.getType(resultTypeName(declaration));
  if (!result) throw new Error(`The schema has no ${resultTypeName(declaration)}.`);
  return `{ ${unionOrObject(result).join(' ')} }`;
}

/**
 * camelCase GraphQL name to snake_case wire name (schema/wire-field-extension.ts, as REST and MCP
 * answer), for every field of the check answers whose names differ.
 */
export function wireNames(schema: GraphQLSchema): Record<string, string> {
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  const visit = (type: GraphQLNamedType | undefined): void => {
    if (!type || seen.has(type.name)) return;
    seen.add(type.name);
    if (isUnionType(type)) for (const member of type.getTypes()) visit(member);
    if (!isObjectType(type)) return;
    for (const field of Object.values(type.getFields())) {
      if (wireNameOf(field) !== field.name) out[field.name] = wireNameOf(field);
      visit(getNamedType(field.type));
    }
  };
  for (const declaration of checkDeclarations) visit(schema.getType(resultTypeName(declaration)) ?? undefined);
  return out;
}
