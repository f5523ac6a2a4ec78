import type { GraphQLField } from 'graphql';

/**
 * What the REST and MCP doors call a field, carried in the field's `extensions`. Those doors answer in snake_case:
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
  /**
   * A check leaves the key out rather than answering null (`domainUnicode` for an ASCII name): GraphQL
   * answers null, REST and MCP leave the key out (schema/drop-absent-fields.ts, operations/graphql-json-schema.ts).
   */
  readonly absentWhenNull?: boolean;
  /** With absentWhenNull: left out only when this sibling field (its GraphQL name) is absent too, null beside it. */
  readonly absentUnless?: string;
};

/**
 * The extensions of a check answer field the check leaves out when it has no value; with `unless`
 * (a sibling field's name), only when that sibling is absent too (SPF's `explanation` is null with
 * `ip` and left out without it). The field must be nullable: GraphQL answers null.
 */
export function absentWhenNull(unless?: string): WireField {
  return { absentWhenNull: true, ...(unless === undefined ? {} : { absentUnless: unless }) };
}

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

/** Whether a check leaves the field's key out rather than answering null, and beside which sibling it is null instead (absentWhenNull). */
export function absenceOf(field: { readonly extensions?: unknown }): { readonly absent: boolean; readonly unless?: string } {
  const { extensions } = field;
  if (typeof extensions !== 'object' || extensions === null || !('absentWhenNull' in extensions) || extensions.absentWhenNull !== true)
    return { absent: false };
  const unless = 'absentUnless' in extensions ? extensions.absentUnless : undefined;
  return typeof unless === 'string' ? { absent: true, unless } : { absent: true };
}

/** Whether REST and MCP leave the field out of the documents they run (a row may still select it: OperationRow.alsoSelects). */
export function omittedOnTheWire(field: GraphQLField<unknown, unknown>): boolean {
  return Boolean(field.deprecationReason) || field.extensions.wireOmit === true;
}
