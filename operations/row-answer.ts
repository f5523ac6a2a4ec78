import type { GraphQLSchema } from 'graphql';
import { loadDocument } from './operation-document.js';
import type { OperationRow } from './operation-table.js';
import { answerToWire, rootWireKey } from './wire-shape.js';

/**
 * A row's REST and MCP answer from GraphQL's `data` for the row's document: named and spelled for
 * the wire (operations/wire-shape.ts), then data[unwrap] when the row unwraps, reshaped as the row
 * says (a page lifted, a check's absent keys dropped). The operation runner answers with it; a test
 * that asks /graphql with the row's document gets the same answer through it.
 */
export function rowAnswer(schema: GraphQLSchema, row: OperationRow, data: Record<string, unknown>): unknown {
  const { document, operationName } = loadDocument(row.document);
  const wire = answerToWire(schema, document, operationName, data);
  const answer = row.unwrap ? wire[rootWireKey(schema, document, operationName, row.unwrap)] : wire;
  return row.reshape ? row.reshape(answer) : answer;
}
