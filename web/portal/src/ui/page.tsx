import { useEffect, useRef, type ReactNode } from 'react';

/**
 * One page: its title as the only h1, focused when the page opens so a screen reader announces
 * where the person is after a navigation, and the document title kept in step.
 */
export function Page(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · Portal`;
    heading.current?.focus();
  }, [props.title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title" tabIndex={-1} ref={heading}>{props.title}</h1>
        {props.actions ? <div className="page-actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}
