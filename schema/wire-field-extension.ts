import type { GraphQLField } from 'graphql';

/**
 * What the REST and MCP doors call a field, carried in the field's `extensions` (beside the check
 * answers' `wireName`, which schema/check-answers/wire-extensions.ts sets the same way). Those doors answer in snake_case:
 * a field's key there is the snake_case of its GraphQL name unless `wireName` says otherwise (a
 * connection is "page" before the door lifts it, operations/page-answer.ts; a switch is "reconnection"
 * where the answer says whose). The operation documents are printed from the schema with these
 * (operations/print-operation-document.ts), and operations/wire-shape.ts renames the answers by them.
 */
// A type rather than an interface: Pothos types `extensions` as a record, which only a type literal fits.
export type WireField = {
  /** The key on REST and MCP, where the snake_case of the GraphQL name is not it. */
  readonly wireName?: string;
  /** Not selected by REST and MCP (a cursor, an id only the portal uses); a deprecated field is not either. */
  readonly wireOmit?: boolean;
};

/** firstInvoice → first_invoice: the mechanical rule between a GraphQL name and a documented one. */
export function camelToSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The key REST and MCP give a field (or an input field) in their answers and bodies. */
export function wireNameOf(field: { readonly name: string; readonly extensions?: unknown }): string {
  const { extensions } = field;
  const wireName = typeof extensions === 'object' && extensions !== null && 'wireName' in extensions ? extensions.wireName : undefined;
  return typeof wireName === 'string' ? wireName : camelToSnake(field.name);
}

/** Whether REST and MCP leave the field out of the documents they run (a row may still select it: OperationRow.alsoSelects). */
export function omittedOnTheWire(field: GraphQLField<unknown, unknown>): boolean {
  return Boolean(field.deprecationReason) || field.extensions.wireOmit === true;
}
