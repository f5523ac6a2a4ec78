import { createElement, lazy, type ComponentType } from 'react';

/** A page whose code is a chunk of its own (routes.tsx), which can be fetched before it is shown. */
export type LazyPage<P extends object> = ComponentType<P> & {
  /** Starts fetching the page's chunk; once it is there, the page renders without suspending. */
  preload(this: void): void;
};

/**
 * Like React's lazy(), but a page whose chunk has already arrived renders directly. React suspends
 * on a lazy() component's first render however early its chunk came, and then holds the page back
 * behind its "Loading…" fallback for at least 300 ms (React's fallback throttle): every full load of
 * a portal page waited that long, its h1 appearing at about 380 ms instead of 80 ms. With the chunk
 * fetched while the session is checked (main.tsx), the page skips the fallback and the wait.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const Suspending = lazy(async () => ({ default: await start() }));
  function Page(props: P) {
    return loaded ? createElement(loaded, props) : createElement(Suspending, props);
  }
  // A failed fetch shows when the page renders (PageChunk's sentence); a preload alone stays quiet.
  Page.preload = () => void start().catch(() => undefined);
  return Page;
}
