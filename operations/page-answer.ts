/**
 * The REST and MCP shape of a paged list read through a GraphQL connection. Named on the wire
 * (schema/connection.ts), the connection is `page`, its items the list's own name and its
 * `pageInfo { hasNextPage }` `page_info { has_more }`; the answer lifts both to where the list used
 * to be, so an answer keeps its fields and gains "has_more", Stripe's way:
 * `{"x": 1, "page": {"orders": [...], "page_info": {"has_more": true}}}` becomes
 * `{"x": 1, "orders": [...], "has_more": true}`.
 */
export function pageForRest(answer: unknown): unknown {
  if (!isRecord(answer) || !isRecord(answer.page)) return answer;
  const { page, ...rest } = answer;
  const { page_info: pageInfo, ...items } = page;
  return { ...rest, ...items, has_more: isRecord(pageInfo) ? pageInfo.has_more : false };
}

type Schema = Record<string, unknown>;

/** The JSON Schema of that answer, made from the selection's schema the same way. */
export function pageSchemaForRest(schema: Schema): Schema {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const page = properties.page;
  if (!isRecord(page) || !isRecord(page.properties)) throw new Error('pageSchemaForRest: the document selects no connection as "page".');
  const { page_info: pageInfo, ...items } = page.properties;
  const hasMore = isRecord(pageInfo) && isRecord(pageInfo.properties) ? pageInfo.properties.has_more : undefined;
  if (!isRecord(hasMore)) throw new Error('pageSchemaForRest: the connection selects no pageInfo { hasNextPage } (page_info.has_more on the wire).');
  const { page: _page, ...rest } = properties;
  const required = (Array.isArray(schema.required) ? schema.required : []).filter((name) => name !== 'page');
  return {
    ...schema,
    properties: {
      ...rest,
      ...items,
      has_more: { ...hasMore, description: 'More items follow this page: ask again with starting_after set to the id of its last item.' },
    },
    required: [...required, ...Object.keys(items), 'has_more'],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
