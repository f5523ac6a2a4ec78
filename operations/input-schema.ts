import type { OperationRow, ParamSpec } from './operation-table.js';
import { stringList } from './graphql-json-schema.js';

export type JsonSchema = Record<string, unknown>;

/**
 * One parameter as tools.json, MCP and POST bodies take it: a list natively as an array of strings
 * (at most maxItems) or a comma-separated string; an enum's values listed (any case is accepted).
 */
export function paramSchema(param: ParamSpec): JsonSchema {
  if (param.type === 'integer') return { type: 'integer', description: param.description };
  if (param.type === 'boolean') return { type: 'boolean', description: param.description };
  if (param.list) {
    const array: JsonSchema = { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, ...(param.maxItems ? { maxItems: param.maxItems } : {}) };
    return { description: param.description, anyOf: [array, { type: 'string', minLength: 1 }] };
  }
  if (param.enum) return { type: 'string', enum: [...param.enum], description: param.description };
  return { type: 'string', minLength: param.required ? 1 : 0, description: param.description };
}

/**
 * The JSON Schema of a row's input, for tools.json, the MCP tool lists and OpenAPI. Strict: unknown
 * fields are refused, as the REST door refuses them. `body` is the row's body schema, when it has one.
 */
export function inputSchemaFor(row: OperationRow, body?: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const param of row.params) {
    properties[param.name] = paramSchema(param);
    if (param.required) required.push(param.name);
  }
  if (body && typeof body.properties === 'object') {
    Object.assign(properties, body.properties);
    required.push(...stringList(body.required));
  }
  for (const [name, schema] of Object.entries(extra)) {
    properties[name] = schema;
    required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}
