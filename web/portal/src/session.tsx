import { createContext, useContext, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { graphql } from './gql';
import type { ViewerQuery } from './gql/graphql';
import { errorSentence, isSignedOut } from './api';

const ViewerDocument = graphql(`
  query Viewer {
    viewer { userId email role accountId accountName }
  }
`);

export type Viewer = ViewerQuery['viewer'];

interface SessionState {
  readonly viewer: Viewer;
  /** Asks the service again (after signing in or out). */
  readonly refresh: () => void;
}

const SessionContext = createContext<SessionState | null>(null);

/** The signed-in person; only pages inside <SignedIn> call this. */
export function useViewer(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useViewer outside a signed-in page');
  return state;
}

/**
 * Asks who is signed in; renders `signedIn` with the person, `signedOut` when nobody is (a 401), and
 * a sentence when the service cannot say.
 */
export function Session(props: { signedIn: ReactNode; signedOut: (refresh: () => void) => ReactNode }) {
  const [result, reexecute] = useQuery({ query: ViewerDocument, requestPolicy: 'network-only' });
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  if (result.fetching && !result.data)
    return (
      <p className="loading" role="status">
        Loading…
      </p>
    );
  if (result.data?.viewer) {
    return <SessionContext.Provider value={{ viewer: result.data.viewer, refresh }}>{props.signedIn}</SessionContext.Provider>;
  }
  if (isSignedOut(result.error) || !result.error) return <>{props.signedOut(refresh)}</>;
  return (
    <p role="alert" className="banner banner-error">
      {errorSentence(result.error)}
    </p>
  );
}
