import { useEffect } from 'react';

/**
 * Makes every `.table-wrap` that actually scrolls sideways reachable by keyboard (WCAG 2.1.1; axe's
 * scrollable-region-focusable): a tab stop named after its table, so a person without a pointer can
 * focus it and scroll with the arrow keys. A wrap that fits stays out of the tab order. Pages keep
 * writing a plain `<div className="table-wrap">`; this watches the page for them (new rows, a
 * narrower window) so no page has to remember.
 */
export function useScrollableRegions(): void {
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      for (const wrap of document.querySelectorAll<HTMLElement>('.table-wrap')) {
        // A wrap the page made a tab stop itself (tabIndex on the element) is the page's choice: left alone.
        if (wrap.hasAttribute('tabindex') && !wrap.hasAttribute('data-scroll-stop')) continue;
        if (wrap.scrollWidth > wrap.clientWidth + 1) {
          if (wrap.hasAttribute('data-scroll-stop')) continue;
          wrap.setAttribute('data-scroll-stop', '');
          wrap.tabIndex = 0;
          if (!wrap.hasAttribute('role')) wrap.setAttribute('role', 'region');
          if (!wrap.hasAttribute('aria-label') && !wrap.hasAttribute('aria-labelledby')) wrap.setAttribute('aria-label', `${tableName(wrap)} (scrolls sideways)`);
        } else if (wrap.hasAttribute('data-scroll-stop')) {
          // It fits now (a wider window, fewer rows): out of the tab order again.
          wrap.removeAttribute('data-scroll-stop');
          wrap.removeAttribute('tabindex');
        }
      }
    };
    const schedule = () => { if (!frame) frame = requestAnimationFrame(update); };
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true });
    window.addEventListener('resize', schedule);
    schedule();
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
}

/** The table's caption, else the heading of the section or card it sits in, else the page's title. */
function tableName(wrap: HTMLElement): string {
  const caption = wrap.querySelector('caption')?.textContent;
  const heading = wrap.closest('section, .card, form')?.querySelector('h2, h3, h4')?.textContent ?? document.querySelector('h1')?.textContent;
  return (caption ?? heading ?? 'Table').trim().replace(/\s+/g, ' ');
}
