import { Component, Suspense, type ReactNode } from 'react';
import { Loading } from './status';

/**
 * Where a lazily loaded page (routes.tsx) renders: "Loading…" while its chunk is fetched (the same
 * .loading status a page shows while its query runs, so tests' pageSettled waits for both), and a
 * sentence instead of a blank page when the chunk cannot be fetched (offline, or a newer build
 * replaced it since this tab opened).
 */
export function PageChunk(props: { children: ReactNode }) {
  return (
    <ChunkFailure>
      <Suspense fallback={<Loading />}>{props.children}</Suspense>
    </ChunkFailure>
  );
}

class ChunkFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <p role="alert" className="banner banner-error">
        This page could not be loaded from the service (the connection dropped, or the portal was updated since this tab opened). Reload the page to try again.
      </p>
    );
  }
}
