/**
 * What a check answer field carries for the REST and MCP doors, in its GraphQL extensions. The
 * checks answer snake_case keys; a GraphQL field is their camelCase (`lookupCount` exposes
 * `lookup_count`). The operation documents alias each field back to its wire name
 * (schema/check-document.ts, printed by scripts/print-schema.ts), and the doors drop the nulls of
 * fields a check leaves out (schema/drop-absent-fields.ts, operations/graphql-json-schema.ts).
 * A field without these extensions has the same name on every door and is never left out.
 */
// A type, not an interface: GraphQL's field extensions take an object with an index signature.
export type WireExtensions = {
  /** The key the check answers (snake_case), which REST and MCP answer too. */
  readonly wireName: string;
  /** The check leaves the key out rather than answering null: GraphQL answers null, REST and MCP leave it out. */
  readonly absentWhenNull: boolean;
  /** With absentWhenNull: left out only when this sibling key is absent too (null beside it). */
  readonly absentUnless?: string;
};

/** The extensions of a field whose wire name differs from its GraphQL name: `extensions: wireName('lookup_count')`. */
export function wireName(name: string): WireExtensions {
  return { wireName: name, absentWhenNull: false };
}

/**
 * The extensions of a field the check leaves out when it has no value (`domain_unicode` for an ASCII
 * name); with `unless`, only when that sibling is absent too (SPF's `explanation` is null with `ip`
 * and left out without it). The field must be nullable: GraphQL answers null.
 */
export function absentWhenNull(name: string, unless?: string): WireExtensions {
  return { wireName: name, absentWhenNull: true, ...(unless === undefined ? {} : { absentUnless: unless }) };
}
