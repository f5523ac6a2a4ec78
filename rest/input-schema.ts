import type { OperationRow, ParamSpec } from './operation-table.js';

export type JsonSchema = Record<string, unknown>;

/** Parameters that carry a list: tools.json, MCP and POST bodies take a list of strings natively. */
const LIST_PARAMS = new Set(['domains', 'emails']);

function paramSchema(param: ParamSpec): JsonSchema {
  if (param.type === 'integer') return { type: 'integer', description: param.description };
  if (LIST_PARAMS.has(param.name)) {
    return { description: param.description, anyOf: [{ type: 'array', items: { type: 'string' }, minItems: 1 }, { type: 'string', minLength: 1 }] };
  }
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
    required.push(...((body.required as string[] | undefined) ?? []));
  }
  for (const [name, schema] of Object.entries(extra)) {
    properties[name] = schema;
    required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}
