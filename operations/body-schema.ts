import { isInputType, Kind, parse, typeFromAST, type GraphQLInputType, type OperationDefinitionNode } from 'graphql';
import { schema as graphqlSchema } from '../schema/index.js';
import { loadDocument } from './operation-document.js';
import type { OperationRow } from './operation-table.js';
import { inputSchema, isJsonSchema, refName, type JsonSchema } from './graphql-json-schema.js';

/** The GraphQL input type of a row's body variable, and whether the variable is non-null. */
export function bodyInputType(row: OperationRow): { type: GraphQLInputType; required: boolean } | undefined {
  if (!row.bodyVariable) return undefined;
  const operation = parse(loadDocument(row.document).source).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const definition = operation?.variableDefinitions?.find((v) => v.variable.name.value === row.bodyVariable);
  const found = definition ? typeFromAST(graphqlSchema, definition.type) : undefined;
  const type = found && isInputType(found) ? found : undefined;
  if (!definition || !type)
    throw new Error(`${row.name}: the body variable $${row.bodyVariable} is not declared with a known type in ${row.document}.graphql.`);
  return { type, required: definition.type.kind === Kind.NON_NULL_TYPE };
}

/**
 * A row's body as one self-contained JSON Schema (input objects written in place, no $ref), for MCP
 * tool input schemas: a model reads the fields, their types, which are required and their
 * descriptions from the tool list alone.
 */
export function bodySchemaFor(row: OperationRow): JsonSchema | undefined {
  const body = bodyInputType(row);
  if (!body) return undefined;
  const components: Record<string, JsonSchema> = {};
  return inlineSchema(inputSchema(body.type, components), components, 0);
}

function inline(value: unknown, components: Record<string, JsonSchema>, depth: number): unknown {
  if (depth > 12) throw new Error('An input type nests too deeply (or refers to itself) to be written in place.');
  if (Array.isArray(value)) return value.map((v) => inline(v, components, depth));
  return isJsonSchema(value) ? inlineSchema(value, components, depth) : value;
}

/** The schema with its $ref (if any) replaced by the component it names, and so on inside. */
function inlineSchema(schema: JsonSchema, components: Record<string, JsonSchema>, depth: number): JsonSchema {
  if (depth > 12) throw new Error('An input type nests too deeply (or refers to itself) to be written in place.');
  const { $ref, ...rest } = schema;
  const base = typeof $ref === 'string' ? { ...components[refName($ref)], ...rest } : rest;
  return Object.fromEntries(Object.entries(base).map(([k, v]) => [k, inline(v, components, depth + (typeof $ref === 'string' ? 1 : 0))]));
}
