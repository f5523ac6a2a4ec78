import { Kind, type OperationDefinitionNode } from 'graphql';
import { schema as graphqlSchema } from '../schema/index.js';
import { loadDocument } from './operation-document.js';
import type { OperationRow } from './operation-table.js';
import { camelToSnake, selectionSchema, type JsonSchema } from './graphql-json-schema.js';
import { rootWireKey } from './wire-shape.js';

const answers = new WeakMap<OperationRow, JsonSchema>();

/**
 * The JSON Schema of a row's REST answer, self-contained (no $ref): data[unwrap] when the row
 * unwraps, else the whole data object, from its operation document's selection against the GraphQL
 * schema (wire names give the keys), reshaped as the row reshapes its answer. OpenAPI's 200 answers
 * and the MCP tools' output schemas are both this.
 */
export function answerSchemaFor(row: OperationRow): JsonSchema {
  let answer = answers.get(row);
  if (!answer) {
    const { document } = loadDocument(row.document);
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    if (!operation) throw new Error(`operations/documents/${row.document}.graphql holds no operation.`);
    const data = selectionSchema(graphqlSchema, document, operation);
    const properties = data.properties;
    const selected = row.unwrap ? (isSchema(properties) ? properties[rootWireKey(graphqlSchema, document, undefined, row.unwrap)] : undefined) : data;
    if (!isSchema(selected)) throw new Error(`${row.name}: ${row.document}.graphql selects no "${row.unwrap}".`);
    answer = row.reshapeSchema ? row.reshapeSchema(selected) : selected;
    answers.set(row, answer);
  }
  return answer;
}

/** An MCP tool's output: its schema (an object, as MCP requires) and, when the answer is not one, the key it is put under. */
export interface ToolOutput {
  readonly schema: JsonSchema & { type: 'object' };
  /** The answer is a list, a nullable object or text: structuredContent is {[wrap]: answer}. */
  readonly wrap?: string;
}

/**
 * The output of a row's MCP tool (MCP 2025-06-18 `outputSchema`): the REST answer's schema when the
 * answer is always an object; otherwise (a list, an answer that may be null, a zone file's text)
 * an object with the answer under the snake_case name of the field the row unwraps.
 */
export function toolOutputOf(row: OperationRow): ToolOutput {
  const wrap = camelToSnake(row.unwrap ?? 'answer');
  const answer: JsonSchema = row.textAnswer
    ? { type: 'string', description: `The answer as ${row.textAnswer} text (the REST answer's body).` }
    : answerSchemaFor(row);
  if (answer.type === 'object') return { schema: { ...answer, type: 'object' } };
  // A union of objects (a check's full answer, or the one its deadline cut short) is always an object.
  const branches = answer.anyOf;
  if (Array.isArray(branches) && branches.length > 0 && branches.every((b) => isSchema(b) && b.type === 'object'))
    return { schema: { type: 'object', ...answer } };
  return { wrap, schema: { type: 'object', properties: { [wrap]: answer }, required: [wrap], additionalProperties: false } };
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
