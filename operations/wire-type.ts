/**
 * The type-level twin of the mechanical rule in operations/wire-shape.ts: a GraphQL answer's type
 * (operations/generated/operations.ts) with every key in snake_case, as REST and MCP answer it. A
 * field whose wireName differs (a connection's "page", schema/wire-field-extension.ts) is not renamed
 * here: its reader spells that part out.
 */
type SnakeKey<S extends string> = S extends `${infer Head}${infer Rest}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeKey<Rest>}`
  : S;

export type Wire<T> = T extends readonly (infer Item)[]
  ? Wire<Item>[]
  : T extends object
    ? { [K in keyof T as K extends string ? SnakeKey<K> : K]: Wire<T[K]> }
    : T;
