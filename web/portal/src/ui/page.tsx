import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The heading of the first page shown in this document. That page keeps the focus at the top of the
 * document, as any page load does, so Tab reaches the skip link first; every later one (a navigation
 * inside the app, or the dashboard after signing in) moves the focus to its heading. Kept as the
 * element, not a flag, so React's development double-run of effects does not count as a second page.
 */
let firstHeading: HTMLHeadingElement | null = null;

/**
 * One page: its title as the only h1, focused when the person navigates to it so a screen reader
 * announces where they are, and the document title kept in step.
 */
export function Page(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · Portal`;
    if (!firstHeading) firstHeading = heading.current;
    else if (heading.current !== firstHeading) heading.current?.focus();
  }, [props.title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title" tabIndex={-1} ref={heading}>
          {props.title}
        </h1>
        {props.actions ? <div className="page-actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}
