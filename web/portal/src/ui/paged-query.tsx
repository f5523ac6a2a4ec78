import { useState } from 'react';
import { useClient, useQuery, type AnyVariables, type CombinedError, type DocumentInput, type RequestPolicy } from 'urql';
import { ErrorBanner } from './status';

/** A connection's pageInfo as the portal's documents select it. */
export interface PageInfoFields {
  readonly hasNextPage: boolean;
  readonly endCursor?: string | null;
}

/**
 * A list read through a GraphQL connection (docs/api.md, "Pagination"): the first page through
 * useQuery (so refreshing works as for any query), the next ones on demand with `after` set to the
 * previous page's endCursor. Pages loaded after an older first page are dropped when it is asked
 * for again (a refresh starts from the top). The page size goes in as a variable ($first), not a
 * literal: graphql-armor's cost limit counts a literal argument into the query's cost, and the
 * dashboard's nested selection with first: 100 written in went over 5,000.
 */
export function usePagedQuery<Data, Variables extends AnyVariables & { after?: string | null }>(args: {
  readonly query: DocumentInput<Data, Variables>;
  readonly variables: Variables;
  readonly pageInfo: (data: Data) => PageInfoFields;
  readonly requestPolicy?: RequestPolicy;
}) {
  const [first, reexecute] = useQuery<Data, Variables>({
    query: args.query,
    variables: args.variables,
    ...(args.requestPolicy ? { requestPolicy: args.requestPolicy } : {}),
  });
  const client = useClient();
  const [more, setMore] = useState<{ readonly after: Data | undefined; readonly pages: readonly Data[] }>({ after: undefined, pages: [] });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<CombinedError | null>(null);
  const extra = more.after !== undefined && more.after === first.data ? more.pages : [];
  const pages = first.data === undefined ? [] : [first.data, ...extra];
  const last = pages.at(-1);
  const info = last === undefined ? undefined : args.pageInfo(last);
  const loadMore = async () => {
    if (!info?.hasNextPage || loading) return;
    setLoading(true);
    setError(null);
    const answer = await client.query(args.query, { ...args.variables, after: info.endCursor ?? null }, { requestPolicy: 'network-only' }).toPromise();
    setLoading(false);
    if (answer.error || answer.data === undefined) {
      setError(answer.error ?? null);
      return;
    }
    const next = answer.data;
    setMore({ after: first.data, pages: [...extra, next] });
  };
  return { first, reexecute, pages, hasNextPage: info?.hasNextPage ?? false, loadMore, loading, error };
}

/** The "Show more" button under a paged list, and what went wrong loading the next page. */
export function ShowMore(props: {
  readonly label: string;
  readonly hasNextPage: boolean;
  readonly loading: boolean;
  readonly error: CombinedError | null;
  readonly onClick: () => void;
}) {
  if (!props.hasNextPage && !props.error) return null;
  return (
    <div className="show-more">
      {props.error ? <ErrorBanner error={props.error} /> : null}
      {props.hasNextPage ? (
        <button type="button" onClick={props.onClick} disabled={props.loading}>
          {props.loading ? 'Loading…' : props.label}
        </button>
      ) : null}
    </div>
  );
}
