import { Kind, parse, type DocumentNode, type FieldNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { RateLimitClass } from '../resolvers/limits/rate-limits.js';
import { addSpend, NOTHING, spendFor, type Spend } from '../resolvers/limits/door-policy.js';

/** One GraphQL request of a POST body (a batch holds several) or of a GET's query string. */
export interface GraphqlParams {
  readonly query?: unknown;
  readonly operationName?: unknown;
}

/**
 * What a /graphql request spends, per operation as REST and MCP count them: a query costs one read,
 * plus one change per root field whose operation-table class is not reading (previewOrder); a
 * mutation costs one change per root field, aliases and fragments included, so 40 aliased
 * createWorkspace cost 40 changes, as 40 REST calls would. A placement counts as a change here and
 * against the hourly order allowance in its resolver. A request yoga will refuse unparsed still
 * costs one read, so a stream of broken requests is not free.
 */
export function graphqlSpend(params: readonly GraphqlParams[], fieldClass: ReadonlyMap<string, RateLimitClass>): Spend {
  if (params.length === 0) return spendFor('read');
  return params.map((one) => operationSpend(one, fieldClass)).reduce(addSpend, NOTHING);
}

/**
 * Spends already worked out, by field classes, then by operation name and document text: the
 * portal and our frontends send the same few documents, so each is parsed here once, not per
 * request. Bounded: emptied when full, and long documents are never kept.
 */
const remembered = new WeakMap<ReadonlyMap<string, RateLimitClass>, Map<string, Spend>>();
const REMEMBERED_MAX = 500;
const REMEMBERED_TEXT_MAX = 20_000;

function operationSpend(params: GraphqlParams, fieldClass: ReadonlyMap<string, RateLimitClass>): Spend {
  if (typeof params.query !== 'string') return spendFor('read');
  if (params.query.length > REMEMBERED_TEXT_MAX) return parsedSpend(params.query, params.operationName, fieldClass);
  let known = remembered.get(fieldClass);
  if (!known) remembered.set(fieldClass, (known = new Map()));
  const key = `${typeof params.operationName === 'string' ? params.operationName : ''}\u0000${params.query}`;
  let spend = known.get(key);
  if (spend === undefined) {
    spend = parsedSpend(params.query, params.operationName, fieldClass);
    if (known.size >= REMEMBERED_MAX) known.clear();
    known.set(key, spend);
  }
  return spend;
}

function parsedSpend(query: string, operationName: unknown, fieldClass: ReadonlyMap<string, RateLimitClass>): Spend {
  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: true, maxTokens: 5000 });
  } catch {
    return spendFor('read');
  }
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const name = typeof operationName === 'string' ? operationName : null;
  const operation = name ? operations.find((o) => o.name?.value === name) : operations.length === 1 ? operations[0] : undefined;
  if (!operation) return spendFor('read');
  const fields = rootFields(operation.selectionSet, document, new Set());
  let change = 0;
  for (const field of fields) {
    if (field.name.value.startsWith('__')) continue;
    const kind = fieldClass.get(field.name.value) ?? (operation.operation === 'query' ? 'read' : 'change');
    if (kind !== 'read' && kind !== 'public') change += 1;
  }
  // A query answers its reads together: one read, as one REST GET; a mutation is only its changes.
  const read = operation.operation === 'query' && (change === 0 || fields.length > change) ? 1 : 0;
  return { read, change: change === 0 && read === 0 ? 1 : change };
}

/** The root fields an operation runs, through fragment spreads and inline fragments (each spread counted where it appears). */
function rootFields(set: SelectionSetNode, document: DocumentNode, seen: Set<string>): FieldNode[] {
  const out: FieldNode[] = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) out.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) out.push(...rootFields(selection.selectionSet, document, seen));
    else {
      const name = selection.name.value;
      if (seen.has(name)) continue; // a cycle is refused by validation; count it once
      const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name);
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION) out.push(...rootFields(fragment.selectionSet, document, new Set([...seen, name])));
    }
  }
  return out;
}
