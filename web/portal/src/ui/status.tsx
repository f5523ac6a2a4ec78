import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { errorSentence } from '../api';

/** A failure in words the service chose (`role="alert"`, so a screen reader reads it out). */
export function ErrorBanner(props: { error?: CombinedError | null; message?: string | null }) {
  const text = props.message ?? errorSentence(props.error);
  if (!text) return null;
  return (
    <p role="alert" className="banner banner-error">
      {text}
    </p>
  );
}

/** A success or a neutral notice (`role="status"`). */
export function Notice(props: { children: ReactNode; tone?: 'ok' | 'warn' | 'info' }) {
  return (
    <p role="status" className={`banner banner-${props.tone ?? 'info'}`}>
      {props.children}
    </p>
  );
}

/** While a query has not answered yet. */
export function Loading() {
  return (
    <p className="loading" role="status">
      Loading…
    </p>
  );
}

/** Renders a query's three states: loading, failed (the sentence), or its data. */
export function QueryState<T>(props: { fetching: boolean; error?: CombinedError; data?: T | undefined; children: (data: T) => ReactNode }) {
  if (props.data !== undefined)
    return (
      <>
        {props.error ? <ErrorBanner error={props.error} /> : null}
        {props.children(props.data)}
      </>
    );
  if (props.error) return <ErrorBanner error={props.error} />;
  return <Loading />;
}
