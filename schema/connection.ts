import type { ObjectRef, SchemaTypes } from '@pothos/core';
import { builder } from './builder.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type Page } from '../resolvers/pagination.js';
import type { WireField } from './wire-field-extension.js';

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types extends SchemaTypes> ? Types : never;

interface Edge<T> {
  readonly cursor: string;
  readonly node: T;
}

interface PageInfo {
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
  readonly startCursor: string | null;
  readonly endCursor: string | null;
}

/** REST and MCP page with starting_after=<the last item's id> and answer has_more: the cursors are GraphQL's alone. */
const CURSOR_ONLY: WireField = { wireOmit: true };

/** Relay's PageInfo, shared by every connection. */
const PageInfoRef = builder.objectRef<PageInfo>('PageInfo').implement({
  description: 'Where a page sits in its list (the Relay cursor connections specification).',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', {
      description: 'More items follow: ask again with after: endCursor (REST: has_more).',
      extensions: { wireName: 'has_more' } satisfies WireField,
    }),
    hasPreviousPage: t.exposeBoolean('hasPreviousPage', { description: 'The page was asked for after a cursor.', extensions: CURSOR_ONLY }),
    startCursor: t.exposeString('startCursor', {
      nullable: true,
      description: 'The cursor of the first item; null on an empty page.',
      extensions: CURSOR_ONLY,
    }),
    endCursor: t.exposeString('endCursor', {
      nullable: true,
      description: "The cursor of the last item (its id as text, the REST door's starting_after); null on an empty page.",
      extensions: CURSOR_ONLY,
    }),
  }),
});

function pageInfoOf<T>(page: Page<T>): PageInfo {
  const first = page.items[0];
  const last = page.items.at(-1);
  return {
    hasNextPage: page.hasMore,
    hasPreviousPage: page.afterCursor,
    startCursor: first === undefined ? null : page.cursorOf(first),
    endCursor: last === undefined ? null : page.cursorOf(last),
  };
}

/** The description of the two arguments, for a connection field's own description. */
/** The wire name of a field that answers a connection: REST and MCP lift "page" into its parent (operations/page-answer.ts). */
export const PAGE_ON_THE_WIRE: WireField = { wireName: 'page' };

export const CONNECTION_ARGS_TEXT = `first: items per page, 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT}); after: the endCursor of the previous page`;

/**
 * `<Name>Connection { edges { cursor node } nodes pageInfo }` over a Page of T: edges and pageInfo as
 * Relay's specification has them, nodes as a shortcut (GitHub's) for a caller that needs no cursor
 * but the last. A connection may add fields of its own (builder.objectField: the dashboard groups its page by order).
 * On REST and MCP the connection is selected as "page" (its field's wireName) and lifted into its
 * parent (operations/page-answer.ts): `itemsOnTheWire` names its items there ("orders"), or is null
 * where the connection's own field carries them (the dashboard's orders).
 */
export function connectionOf<T, P extends Page<T> = Page<T>>(
  name: string,
  node: ObjectRef<BuilderTypes, T>,
  description: string,
  itemsOnTheWire: string | null,
): ObjectRef<BuilderTypes, P> {
  const edgeRef = builder.objectRef<Edge<T>>(`${name}Edge`).implement({
    fields: (t) => ({
      cursor: t.exposeString('cursor', { description: "The item's id as text: after: this continues after it." }),
      node: t.expose('node', { type: node }),
    }),
  });
  return builder.objectRef<P>(`${name}Connection`).implement({
    description,
    fields: (t) => ({
      edges: t.field({ type: [edgeRef], extensions: CURSOR_ONLY, resolve: (p) => p.items.map((item) => ({ cursor: p.cursorOf(item), node: item })) }),
      nodes: t.field({
        type: [node],
        description: 'The items of the page, without their cursors.',
        extensions: (itemsOnTheWire === null ? { wireOmit: true } : { wireName: itemsOnTheWire }) satisfies WireField,
        resolve: (p) => [...p.items],
      }),
      pageInfo: t.field({ type: PageInfoRef, resolve: (p) => pageInfoOf(p) }),
    }),
  });
}
