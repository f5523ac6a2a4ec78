import type { GraphQLEnumType } from 'graphql';

/**
 * What the REST and MCP doors know about a GraphQL enum beyond its names, carried in the enum's
 * `extensions.door`. Those doors take an enum's documented values in any case, as query strings and
 * snake_case bodies always have; /graphql takes the names exactly, as GraphQL does.
 */
export interface DoorEnum {
  /**
   * Each value's GraphQL name and the spelling REST, MCP and OpenAPI use, in the documented order
   * (a printed schema sorts enum values). The two differ where a GraphQL name cannot hold the
   * spelling: a name cannot start with a digit, so the analytics period "7d" is the value P7D.
   */
  readonly wireValues?: Readonly<Record<string, string>>;
  /** The refusal of a value that is none of the enum's, in the resolver's words; without it GraphQL's own refusal stands (a 422). */
  readonly refuseUnknown?: (raw: string) => Error;
}

export function doorEnumOf(type: GraphQLEnumType): DoorEnum {
  return (type.extensions as { door?: DoorEnum }).door ?? {};
}

/** The values of an enum as REST, MCP and OpenAPI spell them. */
export function wireValuesOf(type: GraphQLEnumType): string[] {
  const wire = doorEnumOf(type).wireValues;
  return wire ? Object.values(wire) : type.getValues().map((v) => v.name);
}

/** Whether some value is spelled on REST and MCP otherwise than GraphQL names it. */
export function hasWireSpellings(type: GraphQLEnumType): boolean {
  return Object.entries(doorEnumOf(type).wireValues ?? {}).some(([name, wire]) => name !== wire);
}

/** name → itself, in the documented order: the wireValues of an enum whose names are the spellings. */
export function sameSpellings(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, n]));
}

/** The GraphQL name of a value written in any case, by name or wire spelling; undefined when it is none of them. */
export function enumNameOf(type: GraphQLEnumType, raw: string): string | undefined {
  const wanted = raw.trim().toLowerCase();
  const wire = doorEnumOf(type).wireValues ?? {};
  return type.getValues().find((v) => v.name.toLowerCase() === wanted || wire[v.name]?.toLowerCase() === wanted)?.name;
}

/** The wire spelling of a GraphQL enum name (itself unless the enum maps it). */
export function wireValueOf(type: GraphQLEnumType, name: string): string {
  return doorEnumOf(type).wireValues?.[name] ?? name;
}
