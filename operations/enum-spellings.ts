import {
  Kind,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInputType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  typeFromAST,
  type DocumentNode,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { doorEnumOf, enumNameOf, hasWireSpellings, wireValueOf } from '../schema/door-enum-extension.js';

/**
 * REST and MCP spell enum values as documented (any case; "7d" where GraphQL says P7D), /graphql
 * as GraphQL names them. These two steps sit on either side of an operation run by a door: its
 * variables are turned into GraphQL names (or refused in the resolver's words, as before the values
 * were enums), and its answer's enum values back into the documented spelling.
 */
interface EnumPlan {
  /** The variables whose type holds an enum somewhere, with that type. */
  readonly variables: readonly { readonly name: string; readonly type: GraphQLInputType }[];
  /** Answer paths (keys; lists are walked through) ending at an enum with wire spellings. */
  readonly wirePaths: readonly { readonly path: readonly string[]; readonly type: GraphQLEnumType }[];
}

const plans = new WeakMap<DocumentNode, EnumPlan>();

function planFor(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): EnumPlan {
  const cached = plans.get(document);
  if (cached) return cached;
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (operationName === undefined || d.name?.value === operationName),
  );
  const variables: { name: string; type: GraphQLInputType }[] = [];
  const wirePaths: { path: string[]; type: GraphQLEnumType }[] = [];
  if (operation) {
    for (const definition of operation.variableDefinitions ?? []) {
      const type = typeFromAST(schema, definition.type);
      if (type && isInputType(type) && holdsEnum(type, new Set())) variables.push({ name: definition.variable.name.value, type });
    }
    const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
    if (root) collectWirePaths(schema, document, root.name, operation.selectionSet, [], wirePaths, 0);
  }
  const plan = { variables, wirePaths };
  plans.set(document, plan);
  return plan;
}

function holdsEnum(type: GraphQLInputType, seen: Set<string>): boolean {
  const named = getNamedType(type);
  if (isEnumType(named)) return true;
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  seen.add(named.name);
  return Object.values(named.getFields()).some((f) => holdsEnum(f.type, seen));
}

function collectWirePaths(
  schema: GraphQLSchema,
  document: DocumentNode,
  typeName: string,
  set: SelectionSetNode,
  path: string[],
  out: { path: string[]; type: GraphQLEnumType }[],
  depth: number,
): void {
  const type = schema.getType(typeName);
  if (depth > 20 || !type || !(isObjectType(type) || isInterfaceType(type))) return;
  const fields = type.getFields();
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = fields[selection.name.value];
      if (!field) continue;
      const key = selection.alias?.value ?? selection.name.value;
      const named = getNamedType(field.type);
      if (isEnumType(named) && hasWireSpellings(named)) out.push({ path: [...path, key], type: named });
      else if (selection.selectionSet) collectWirePaths(schema, document, named.name, selection.selectionSet, [...path, key], out, depth + 1);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collectWirePaths(schema, document, selection.typeCondition?.name.value ?? typeName, selection.selectionSet, path, out, depth + 1);
    } else {
      const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION)
        collectWirePaths(schema, document, fragment.typeCondition.name.value, fragment.selectionSet, path, out, depth + 1);
    }
  }
}

/** The variables with every enum value as GraphQL names it; a value that is none of them is refused here when its enum says how. */
export function enumVariablesToGraphql(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const { variables: typed } = planFor(schema, document, operationName);
  if (typed.length === 0) return variables;
  const out = { ...variables };
  for (const { name, type } of typed) if (out[name] !== undefined) out[name] = toGraphql(type, out[name]);
  return out;
}

function toGraphql(type: GraphQLInputType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (isNonNullType(type)) return toGraphql(type.ofType, value);
  if (isListType(type)) return Array.isArray(value) ? value.map((v) => toGraphql(type.ofType, v)) : toGraphql(type.ofType, value);
  if (isEnumType(type)) {
    if (typeof value !== 'string') return value; // GraphQL refuses it, in the words of a wrong shape
    const name = enumNameOf(type, value);
    if (name !== undefined) return name;
    const refuse = doorEnumOf(type).refuseUnknown;
    if (refuse) throw refuse(value);
    return value;
  }
  if (isInputObjectType(type) && isRecord(value)) {
    const fields = type.getFields();
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const field = fields[k];
        return [k, field ? toGraphql(field.type, v) : v];
      }),
    );
  }
  return value;
}

/** The answer with every enum value that has a wire spelling written that way (P7D → "7d"). */
export function enumAnswerToWire(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const { wirePaths } = planFor(schema, document, operationName);
  for (const { path, type } of wirePaths) rewrite(data, path, type);
  return data;
}

function rewrite(node: unknown, path: readonly string[], type: GraphQLEnumType): void {
  if (Array.isArray(node)) {
    for (const item of node) rewrite(item, path, type);
    return;
  }
  const [key, ...rest] = path;
  if (!isRecord(node) || key === undefined) return;
  const record = node;
  if (rest.length > 0) rewrite(record[key], rest, type);
  else if (Array.isArray(record[key])) record[key] = (record[key] as unknown[]).map((v) => (typeof v === 'string' ? wireValueOf(type, v) : v));
  else if (typeof record[key] === 'string') record[key] = wireValueOf(type, record[key]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
